// The attribution (licence and source credit) once per answer (decision
// 0395). Every catalogue answer of the API carries its attribution block; a
// tool answer that draws on several (a search, a record, a composite of four
// searches) would repeat it in every part. Instead the blocks of the API
// answers a call read, and any left in its payload, are collected, taken out
// where they sat, and given once at the top, one entry per distinct source.
import type { ToolApi } from './api.ts';
import type { Payload } from './define.ts';

export interface Attribution {
  source: string;
  source_url: string;
  license: string;
  edited?: boolean;
  notice?: string;
}

const isAttribution = (v: unknown): v is Attribution =>
  typeof v === 'object' && v !== null && typeof (v as Attribution).license === 'string' && typeof (v as Attribution).source === 'string';

/** Distinct attribution blocks, in the order first seen. */
export class Attributions {
  readonly #blocks = new Map<string, Attribution>();

  add(block: unknown): void {
    if (isAttribution(block)) this.#blocks.set(JSON.stringify(block), block);
  }

  get list(): Attribution[] {
    return [...this.#blocks.values()];
  }

  /** `api` whose every answer's attribution block is added here (the answer itself is unchanged). */
  tap(api: ToolApi): ToolApi {
    const wrap = (target: object): object =>
      new Proxy(target, {
        get: (obj, prop, receiver) => {
          const value = Reflect.get(obj, prop, receiver);
          if (typeof value === 'function') {
            return (...args: unknown[]) => {
              const answer = value.apply(obj, args) as unknown;
              if (answer instanceof Promise)
                return answer.then((body: unknown) => {
                  this.add((body as Payload | null)?.attribution);
                  return body;
                });
              return answer;
            };
          }
          return value !== null && typeof value === 'object' ? wrap(value) : value;
        },
      });
    return wrap(api) as ToolApi;
  }

  /** Take every `attribution` block out of a payload (records, sub-answers), keeping each here. */
  hoist(value: unknown): void {
    if (Array.isArray(value)) {
      for (const v of value) this.hoist(v);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const obj = value as Payload;
    if (isAttribution(obj.attribution)) {
      this.add(obj.attribution);
      delete obj.attribution;
    }
    for (const v of Object.values(obj)) if (typeof v === 'object' && v !== null) this.hoist(v);
  }
}
