// Which bad records a sync sets aside, and when they are no longer "a few odd
// records" but a drift of the source's shape as a whole.
//
// A record whose shape or values are unusable is quarantined: it goes into the
// report with its reasons and raw fragment, and the rest is published. The
// sync refuses to publish (exit 3, nothing written) only when
//   - the list or detail envelope changed (thrown as ShapeDrift while fetching),
//   - one required field is missing or of another type in most records,
//   - every record was set aside, or
//   - the share of set-aside records is over SYNC_MAX_BAD_SHARE (default 5 %).
// One odd record is always tolerated: a share of a handful of records says
// nothing about the source (so the allowance is at least one record).

/** One problem of one record; `field` names the documented field it concerns (null: the record as a whole). */
export interface RecordProblem {
  field: string | null;
  message: string;
}

export class QuarantineTally {
  private total = 0;
  private bad = 0;
  private readonly byField = new Map<string, number>();

  /** Counts one record: its shape problems (per field) and whether it was set aside. */
  record(shapeProblems: readonly RecordProblem[], setAside: boolean): void {
    this.total++;
    if (setAside) this.bad++;
    const fields = new Set(shapeProblems.map((p) => p.field ?? '(record)'));
    for (const f of fields) this.byField.set(f, (this.byField.get(f) ?? 0) + 1);
  }

  get records(): number {
    return this.total;
  }

  get setAside(): number {
    return this.bad;
  }

  /** Records one may set aside and still publish. */
  allowance(maxShare: number): number {
    return Math.max(1, Math.floor(maxShare * this.total));
  }

  /** Why the source drifted as a whole (the message names which rule), or null when the rest may be published. */
  drift(maxShare: number, noun: string): string | null {
    if (this.total === 0 || this.bad === 0) return null;
    for (const [field, n] of [...this.byField].sort((a, b) => b[1] - a[1])) {
      if (n * 2 > this.total) {
        return field === '(record)'
          ? `${n} of ${this.total} ${noun} are not JSON objects`
          : `field ${field} missing or of another type in ${n} of ${this.total} ${noun}`;
      }
    }
    if (this.bad === this.total) return `every one of the ${this.total} ${noun} was set aside`;
    if (this.bad > this.allowance(maxShare)) {
      const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;
      return `${this.bad} of ${this.total} ${noun} set aside (${pct(this.bad / this.total)}), over the threshold of ${pct(maxShare)} (SYNC_MAX_BAD_SHARE)`;
    }
    return null;
  }

  /** The figures the report carries. */
  summary(maxShare: number): { records: number; set_aside: number; share: number; max_share: number } {
    return { records: this.total, set_aside: this.bad, share: this.total ? Math.round((this.bad / this.total) * 10000) / 10000 : 0, max_share: maxShare };
  }
}
