// No silent filters: every parameter a tool advertises is either applied or
// declared not applied. For each tool and each optional parameter, the tool
// is called twice against the real app (in-process, through the real client
// with a recording transport): once with its argument-table arguments, once
// with the parameter set to a distinctive probe value. The parameter is
// applied when the REST requests the client sent differ (the value, or
// something derived from it, reached the API) or the result differs (a filter
// or shape applied to the rows). A parameter the tool declares in
// `notApplied` must instead be left out of tools/list and draw an
// `unsupported_filter` warning. Tools over data this deployment does not hold
// answer status no_data whatever the filters, and say so in the description.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JpSupportClient, injectTransport, type Transport } from '@jp-support/client';
import { build, testCatalogWithBids } from '../../api/test/helper.ts';
import { publishedInput } from '../src/lib/publish.ts';
import { TOOLS } from '../src/tools/index.ts';
import { argumentTable, connectTools, lookupIds, paidKey, type PropertySchema } from './fixtures.ts';

type Json = Record<string, any>;

/** Result keys that echo the input or vary per call: a difference there is not an effect. */
const ECHO_KEYS = ['latency_ms', 'query_echo', 'input_warnings', 'profile'];

/** Parameters that stand for another one: probing one drops its partner from the baseline, which would otherwise win. */
const ALIASES: Record<string, Record<string, string>> = {
  upcoming_deadlines: { days_ahead: 'within_days', within_days: 'days_ahead' },
  smb_starter_pack: { employees: 'employee_count', employee_count: 'employees', jsic: 'industry_jsic', industry_jsic: 'jsic' },
  search_tax_incentives: { natural_query: 'query' },
};

/** Baseline arguments changed by hand where the argument table's page is too small to show an effect. */
const BASELINES: Record<string, Record<string, unknown>> = {
  // a size penalty moves programs the first 5 do not include (50 rows show it); the table's headcount is left out
  // so the probe compares a size with none
  prescreen_programs: { limit: 50, employee_count: undefined },
  smb_starter_pack: { limit_per_section: 10 },
  // rows to shape: a profile some rulesets can be decided on, every verdict listed, loans with any collateral
  evaluate_tax_applicability: { business_profile: { capital_yen: 10_000_000, is_wholly_owned_by_large_corp: false } },
  combined_compliance_check: { tax_verbose: true },
  search_loans_am: { no_collateral: undefined },
};

/**
 * Probe values chosen by hand where the generic one cannot show an effect on
 * the test catalogue (each says why). They are still real effects: the
 * assertion is the same.
 */
const PROBES: Record<string, Record<string, unknown>> = {
  // a size implied by a large headcount rules out programs for sole proprietors and small businesses
  // an industry is a JSIC code or an industry word; text naming no industry is dropped with a warning
  prescreen_programs: { employee_count: 5000, industry_jsic: '製造業' },
  smb_starter_pack: { employees: 5000, employee_count: 5000, industry_jsic: '製造業' },
  similar_cases: { industry_jsic: '製造業' },
  // the default window (30 days) and a one-day window both hold no deadline in the catalogue; 180 days does
  upcoming_deadlines: { days_ahead: 180 },
};

/** A value for a parameter that differs from its default and from the baseline's value. */
function probeValue(field: string, schema: PropertySchema, current: unknown): unknown {
  // The row shape is published bare; its default (compact) is stated once, in the server's instructions.
  const dflt = schema.default ?? (field === 'fields' ? 'compact' : undefined);
  const differs = (v: unknown) => JSON.stringify(v) !== JSON.stringify(current) && JSON.stringify(v) !== JSON.stringify(dflt);
  const variant = schema.anyOf?.[0];
  if (variant) return probeValue(field, variant, current);
  if (schema.enum) return schema.enum.find(differs);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'boolean') return !(current ?? schema.default ?? false);
  if (type === 'integer' || type === 'number') {
    // limit is published without its minimum (1): the server's instructions say it is a page size
    const minimum = schema.minimum ?? (field === 'limit' ? 1 : undefined);
    const candidates = [minimum, schema.maximum, (minimum ?? 0) + 777].filter((v): v is number => typeof v === 'number');
    return candidates.find(differs);
  }
  if (type === 'array') {
    const item = schema.items ?? {};
    // the last value: for tiers that is X, which no open program has, so a filter on it shows
    if (item.enum) return [[...item.enum].reverse().find((v) => !(Array.isArray(current) && current.includes(v)))];
    return [probeValue(field, item, undefined)];
  }
  if (schema.pattern?.includes('today')) return '2020-01-01';
  if (schema.pattern?.startsWith('^\\d{4}') || schema.format === 'date') return '2031-07-19';
  if (schema.pattern === '^\\d{13}$') return '9999999999999';
  const id = /^\^([A-Z]{3})-/.exec(schema.pattern ?? '');
  if (id) return `${id[1]}-0123456789`;
  if (/prefecture|region/.test(field)) return current === '大阪府' ? '北海道' : '大阪府';
  return 'zzprobe';
}

const effect = (body: Json) => JSON.stringify(Object.fromEntries(Object.entries(body).filter(([k]) => !ECHO_KEYS.includes(k))));

// A walk over every parameter of every tool: minutes on a busy two-core machine.
test('every advertised parameter is applied, or declared not applied and reported as such', { timeout: 600_000 }, async (t) => {
  const app = await build(t, {}, {}, { catalog: await testCatalogWithBids() });
  const { key } = await paidKey(app);
  const inject = injectTransport(app);
  let requests: string[] = [];
  const recording: Transport = async (request) => {
    requests.push(`${request.method} ${request.url} ${request.body ?? ''}`);
    return inject(request);
  };
  const api = new JpSupportClient({ transport: recording, apiKey: key, maxRetries: 0 });
  const client = await connectTools(t, api, 'parameters-test');

  const table = argumentTable(await lookupIds(app));
  const { tools } = await client.listTools();
  const call = async (name: string, args: Json) => {
    requests = [];
    const result = await client.callTool({ name, arguments: args });
    return { body: result.structuredContent as Json, requests: [...requests].sort().join('\n') };
  };

  let probed = 0;
  const failures: string[] = [];
  const check = (ok: boolean, message: string) => void (ok || failures.push(message));
  for (const tool of tools) {
    const def = TOOLS.find((d) => d.name === tool.name)!;
    const notApplied = (def.notApplied ?? {}) as Record<string, string>;
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, PropertySchema>;
    const required = new Set(tool.inputSchema.required ?? []);
    const baseArgs = { ...table[tool.name], ...BASELINES[tool.name] };
    const base = await call(tool.name, baseArgs);

    if (base.body.status === 'no_data') {
      check(/status no_data/.test(tool.description ?? ''), `${tool.name} answers no_data: its description must say so`);
      continue;
    }
    // Not-applied parameters are accepted but not published (decision 0390): probe them from the tool's own schema.
    const own = (publishedInput(def).properties ?? {}) as Record<string, PropertySchema>;
    for (const field of Object.keys(notApplied)) {
      check(field in own, `${tool.name}: notApplied names ${field}, which it does not take`);
      check(!(field in properties), `${tool.name}: not-applied ${field} is not published`);
    }
    const probedFields = { ...properties, ...Object.fromEntries(Object.keys(notApplied).map((field) => [field, own[field]!])) };

    for (const [field, schema] of Object.entries(probedFields)) {
      if (required.has(field)) continue;
      const alias = ALIASES[tool.name]?.[field];
      const baseline = alias ? Object.fromEntries(Object.entries(baseArgs).filter(([k]) => k !== alias && k !== field)) : baseArgs;
      const value = PROBES[tool.name]?.[field] ?? probeValue(field, schema, baseline[field]);
      assert.notEqual(value, undefined, `${tool.name}.${field}: no probe value`);
      const without = baseline === baseArgs ? base : await call(tool.name, baseline);
      const probe = await call(tool.name, { ...baseline, [field]: value });
      probed++;
      const where = `${tool.name}.${field}=${JSON.stringify(value)}`;
      if (field in notApplied) {
        const warned = (probe.body.input_warnings ?? []).some((w: Json) => w.code === 'unsupported_filter' && w.field === field);
        check(warned, `${where}: declared not applied, so the call must warn unsupported_filter`);
        continue;
      }
      check(
        !(probe.body.input_warnings ?? []).some((w: Json) => w.field === field && w.code === 'unsupported_filter'),
        `${where}: warned unsupported but not declared`,
      );
      const applied = probe.requests !== without.requests || effect(probe.body) !== effect(without.body);
      check(applied, `${where}: neither the requests nor the result changed; apply the parameter or declare it in notApplied`);
    }
  }
  assert.deepEqual(failures, [], `${failures.length} parameter(s) advertised but not shown to be applied:\n${failures.join('\n')}`);
  assert.ok(probed >= 200, `probed ${probed} parameters`);
});

test('the probe is not vacuous: a parameter that is read into nothing fails it', async (t) => {
  // A tool that advertises `tier` but never passes it on: the same check must catch it.
  const { defineTool, READ_ONLY } = await import('../src/lib/define.ts');
  const { callTool } = await import('../src/lib/call-tool.ts');
  const { inputSchema } = await import('../src/lib/lenient.ts');
  const { z } = await import('zod');
  const app = await build(t);
  let requests: string[] = [];
  const inject = injectTransport(app);
  const api = new JpSupportClient({
    transport: async (r) => {
      requests.push(r.url);
      return inject(r);
    },
    maxRetries: 0,
  });
  const silent = defineTool({
    name: 'silent_tier',
    title: 'x',
    description: 'x',
    annotations: READ_ONLY,
    output: {},
    empty: {},
    input: {
      q: z.string().optional().describe('q'),
      tier: z
        .array(z.enum(['S', 'A']))
        .optional()
        .describe('tier'),
    },
    async run(c, a) {
      void a.tier; // read, but applied to nothing
      return { ...(await c.api.programs.search({ q: a.q, limit: 1 })) };
    },
  });
  const run = async (args: Json) => {
    requests = [];
    const r = await callTool(silent, api, inputSchema(silent).parse(args));
    return { requests: requests.join('\n'), body: r.structuredContent as Json };
  };
  const without = await run({ q: '補助金' });
  const probe = await run({ q: '補助金', tier: ['A'] });
  assert.equal(probe.requests, without.requests);
  assert.equal(effect(probe.body), effect(without.body));
});
