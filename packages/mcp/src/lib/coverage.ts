// What an empty answer covered (decision 0392): an agent must be able to tell
// "nothing matched in N records" from "this deployment holds none of these".
import type { ToolApi } from './api.ts';
import type { Payload } from './define.ts';
import { noData } from './no-data.ts';

/** Rows a record set holds in the served catalogue (`record_counts` of /meta), or undefined when the catalogue does not say. */
export async function recordsHeld(api: ToolApi, set: string): Promise<number | undefined> {
  const meta = (await api.meta()) as { record_counts?: Record<string, number> };
  const n = meta.record_counts?.[set];
  return typeof n === 'number' ? n : undefined;
}

/**
 * An empty search answer with its coverage: status no_data when the set holds
 * no record at all, else how many records the filters were applied to.
 */
export async function explainEmpty(api: ToolApi, set: string, noun: string, out: Payload): Promise<Payload> {
  const held = await recordsHeld(api, set);
  if (held === 0) {
    return noData(`This deployment holds no ${noun}: the answer is empty whatever the filters.`, 'Do not report this as "none exist".', {
      ...out,
      coverage: { records_held: 0 },
    });
  }
  return {
    ...out,
    coverage: { records_held: held ?? null },
    explanation: `No ${noun} matched these filters${held === undefined ? '' : ` (${held} ${noun} held)`}.`,
  };
}
