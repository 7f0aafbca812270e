// The shared vocabulary of a source's shape checks (jgrants/shape.ts,
// egov/shape.ts): a ShapeDrift stops a sync before it writes anything.

export class ShapeDrift extends Error {
  /** The raw fragment that did not fit (cut to a report-sized length). */
  readonly fragment: unknown;
  constructor(message: string, fragment: unknown) {
    super(message);
    this.fragment = fragment;
  }
}

/** A fragment small enough for a report line (long HTML bodies cut). */
export function truncate(value: unknown, max = 2000): unknown {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length <= max ? value : `${text.slice(0, max)}…`;
}
