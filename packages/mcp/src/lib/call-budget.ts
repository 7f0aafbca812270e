// A bound on the API calls one tool call may make. A tool that fans out (one
// call per id, several searches) turns one JSON-RPC message into many REST
// requests, each counted, billed and written to the state store; the bound
// keeps one message's cost predictable. The budget wraps the client's
// resources, so every tool is covered without knowing how it calls.
import type { ToolApi } from './api.ts';

/** API calls one tool call may make at most. */
export const MAX_API_CALLS_PER_TOOL_CALL = 25;

/** Thrown on the call after the budget is spent; the tool answers it as an error result. */
export class CallBudgetExceeded extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`This tool call needs more than ${limit} API calls, the limit for one tool call: narrow it (fewer ids, a narrower filter)`);
    this.limit = limit;
  }
}

/** `api` with at most `limit` method calls in all, counted across its resources. */
export function withCallBudget(api: ToolApi, limit = MAX_API_CALLS_PER_TOOL_CALL): ToolApi {
  let used = 0;
  const wrap = (target: object): object =>
    new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            if (++used > limit) return Promise.reject(new CallBudgetExceeded(limit));
            return value.apply(obj, args);
          };
        }
        return value !== null && typeof value === 'object' ? wrap(value) : value;
      },
    });
  return wrap(api) as ToolApi;
}
