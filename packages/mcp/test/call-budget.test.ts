// One tool call makes at most MAX_API_CALLS_PER_TOOL_CALL API calls, and a
// tool that fails inside answers our own words, never the exception's text
// (issue 11, findings 6 and 13).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_API_CALLS_PER_TOOL_CALL, CallBudgetExceeded, withCallBudget } from '../src/lib/call-budget.ts';
import { callTool } from '../src/lib/call-tool.ts';
import { TOOLS } from '../src/tools/index.ts';
import type { ToolApi } from '../src/lib/api.ts';

test('the budget: the call after the limit fails before reaching the API, across resources', async () => {
  let calls = 0;
  const api = {
    taxRulesets: {
      get: async () => {
        calls++;
        return {};
      },
    },
    meta: async () => {
      calls++;
      return {};
    },
  } as unknown as ToolApi;
  const budgeted = withCallBudget(api, 3);
  await budgeted.taxRulesets.get('TAX-0000000000' as never);
  await budgeted.meta();
  await budgeted.taxRulesets.get('TAX-0000000000' as never);
  await assert.rejects(budgeted.meta(), CallBudgetExceeded);
  assert.equal(calls, 3);
  assert.equal(MAX_API_CALLS_PER_TOOL_CALL, 25);
});

test('a tool that exceeds the budget answers a tool error naming the limit', async () => {
  const def = TOOLS.find((d) => d.name === 'evaluate_tax_applicability')!;
  let calls = 0;
  const api = {
    taxRulesets: {
      search: async () => ({ results: [] }),
      get: async (id: string) => {
        calls++;
        return { unified_id: id };
      },
    },
  } as unknown as ToolApi;
  // At the limit it runs; the schema refuses more ids before any call (limit_exceeded).
  const ids = Array.from({ length: MAX_API_CALLS_PER_TOOL_CALL }, (_, i) => `TAX-${i.toString(16).padStart(10, '0')}`);
  const ok = await callTool(def, api, { business_profile: {}, target_ruleset_ids: ids });
  assert.equal(ok.isError, undefined, JSON.stringify(ok.structuredContent).slice(0, 300));
  assert.equal(calls, MAX_API_CALLS_PER_TOOL_CALL);
  // A tool whose own fan-out passes the budget: the error names it.
  const greedy = {
    ...def,
    name: 'greedy',
    run: async (call: { api: ToolApi }) => {
      for (let i = 0; i <= MAX_API_CALLS_PER_TOOL_CALL; i++) await call.api.taxRulesets.get('TAX-0000000000' as never);
      return {};
    },
  };
  const refused = await callTool(greedy as never, api, {});
  assert.equal(refused.isError, true);
  assert.equal((refused.structuredContent as { error: { code: string } }).error.code, 'call_budget_exceeded');
});

test('a tool that throws answers a fixed message, never the exception text', async () => {
  const def = TOOLS.find((d) => d.name === 'get_meta')!;
  let thrown = false;
  const boom = {
    meta: async () => {
      thrown = true;
      throw new Error('SQLITE_ERROR: no such table am_entities at /srv/app/db.ts:12');
    },
  } as unknown as ToolApi;
  const result = await callTool(def, boom, {});
  assert.equal(result.isError, true);
  const text = JSON.stringify(result);
  assert.doesNotMatch(text, /SQLITE|am_entities|db\.ts/);
  assert.match(text, /internal error/);
  assert.ok(thrown, 'the tool did call the API');
});
