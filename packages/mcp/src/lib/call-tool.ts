// Run one tool call with the conventions of the tool surface: every
// failure (bad input, not found, an upstream error) is an isError result with
// `error` {code, message, detail} and the empty payload keys, the detail
// worded as REST words it (decision 0391); a tool without data answers status
// no_data, one whose data cannot support an answer insufficient_data; every
// result gets the envelope and is checked against the tool's own output schema.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { apiErrorInfo, type ToolApi } from './api.ts';
import { apiErrorObject } from './api-error.ts';
import { ToolInputError, type InputWarning, type Payload, type ToolCall, type ToolDef } from './define.ts';
import { countResults, envelope, outputSchema, toResult, type EnvelopeContext } from './envelope.ts';
import { checkArgs } from './lenient.ts';
import { INSUFFICIENT_DATA, isNoData } from './no-data.ts';
import { aliasWarnings, notAppliedWarnings } from './not-applied.ts';
import { CallBudgetExceeded, withCallBudget } from './call-budget.ts';
import { Attributions } from './attribution.ts';
import { compactRecords } from './rows.ts';

/** Run a tool for leniently parsed arguments (fields may carry invalid markers, see lenient.ts). */
/** `unknown`: argument names the tool does not take (dropped, each warned `unknown_argument`). */
export async function callTool(def: ToolDef, api: ToolApi, rawArgs: Record<string, unknown>, unknown: readonly string[] = []): Promise<CallToolResult> {
  const warnings: InputWarning[] = unknown.map((field) => ({
    code: 'unknown_argument',
    field,
    message: `${def.name} takes no argument ${field}; it was ignored`,
  }));
  const ctx: EnvelopeContext = { toolName: def.name, warnings };
  const failed = (explanation: string, error: Payload) => {
    const payload = { ...def.empty, explanation };
    return toResult({ ...payload, ...envelope(ctx, 'error', payload), error: { detail: explanation, ...error } }, true);
  };
  try {
    const checked = checkArgs(rawArgs);
    warnings.push(...checked.warnings, ...notAppliedWarnings(def, checked.args), ...aliasWarnings(def, checked.args));
    const attributions = new Attributions();
    const call: ToolCall = { api: attributions.tap(withCallBudget(api)), warn: (w) => void warnings.push(w) };
    const payload = await def.run(call, checked.args as never);
    if (payload.error === null) delete payload.error;
    attributions.hoist(payload);
    if (def.rows && checked.args.fields === 'compact') for (const key of def.rows) if (key in payload) payload[key] = compactRecords(payload[key]);
    const noData = isNoData(payload);
    const insufficient = payload.status === INSUFFICIENT_DATA;
    if (payload.error && typeof payload.error === 'object' && !noData && !insufficient) {
      const error = payload.error as Payload;
      return toResult({ ...def.empty, ...payload, ...envelope(ctx, 'error', payload), error: { detail: error.message, ...error } }, true);
    }
    // A no-data or insufficient-data answer carries the usual empty payload keys, like an error does.
    const status = noData ? 'no_data' : insufficient ? 'insufficient_data' : countResults(payload) === 0 ? 'empty' : 'ok';
    // The credit of the data cited, once; an answer that cites nothing credits nothing.
    const credit = status === 'ok' && attributions.list.length > 0 ? { attribution: attributions.list } : {};
    const result = toResult(
      noData || insufficient ? { ...def.empty, ...payload, ...envelope(ctx, status, payload) } : { ...payload, ...envelope(ctx, status, payload), ...credit },
    );
    // A result our own output schema rejects is a bug to surface plainly, not a protocol error.
    const check = outputSchema(def).safeParse(result.structuredContent);
    if (!check.success) throw new Error(`output does not match the schema: ${check.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return result;
  } catch (err) {
    if (err instanceof ToolInputError) {
      return failed(err.message, {
        code: err.code,
        message: err.message,
        detail: err.detail,
        ...(err.hint ? { hint: err.hint } : {}),
        ...(err.retryWith ? { retry_with: err.retryWith } : {}),
      });
    }
    if (err instanceof CallBudgetExceeded) {
      return failed(err.message, { code: 'call_budget_exceeded', message: err.message, limit: err.limit });
    }
    const info = apiErrorInfo(err);
    if (info) {
      const error = apiErrorObject(info);
      return failed(error.message, error);
    }
    // In our words: an exception's own text can carry internals (SQL, paths, stack lines).
    const message = `Tool ${def.name} failed with an internal error; retry later or report it`;
    return failed(message, { code: 'internal_error', message });
  }
}
