// No tool answers an empty or uncertain result without its coverage, and
// every failure is isError with REST's {detail} (decisions 0391, 0392). Every
// tool of the registry (and of the optional toolsets) is called the way an
// agent calls one it knows nothing about: with no arguments, and with
// arguments that match nothing (free text no record holds, ids of the right
// form that no record has). Each answer must be one of:
// - a failure: isError, status error, error.detail a sentence;
// - ok with rows;
// - empty, no_data or insufficient_data, with `coverage` saying what was
//   looked at and an explanation.
// The walk reads the tools from the registry, so a tool added later is held
// to the same rule without an edit here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JpSupportClient, injectTransport } from '@jp-support/client';
import { build } from '../../api/test/helper.ts';
import { publishedInput } from '../src/lib/publish.ts';
import { toolsWith, TOOLSETS } from '../src/tools/index.ts';
import { connectTools, paidKey, type PropertySchema as Property } from './fixtures.ts';

type Json = Record<string, any>;

/** Text no record of the catalogue holds. */
const NOTHING = 'zqxjv-no-such-thing';

/** A value of the right form that names nothing: an id that does not exist, text that matches nothing. */
function nothing(field: string, p: Property): unknown {
  const variant = p.anyOf?.find((v) => v.type !== 'null');
  if (variant) return nothing(field, variant);
  if (p.enum) return p.enum[0];
  const type = Array.isArray(p.type) ? p.type[0] : p.type;
  if (type === 'integer' || type === 'number') return Math.max(p.minimum ?? 1, 1);
  if (type === 'boolean') return true;
  if (type === 'object') return {};
  if (type === 'array') return [nothing(field, p.items ?? { type: 'string' })];
  if (p.format === 'date') return '2031-07-19';
  if (p.pattern === '^\\d{13}$') return '9999999999999';
  const prefix = /^\^([A-Z]{3,4})-/.exec(p.pattern ?? '');
  if (prefix) return `${prefix[1]}-0000000000`;
  if (/prefecture/.test(field)) return '北海道';
  if (/_id$|^id$|unified_id/.test(field)) return `UNI-${'0'.repeat(10)}`;
  return NOTHING;
}

/** The arguments that match nothing: every published field the tool requires, plus its free-text fields. */
function unknownInput(properties: Record<string, Property>, required: readonly string[]): Json {
  const args: Json = {};
  for (const field of required) args[field] = nothing(field, properties[field] ?? {});
  // Every free-text field (a string with no enum, pattern or format), whatever its name (name_query, natural_query, …).
  for (const [field, p] of Object.entries(properties)) {
    const text = p.type === 'string' && !p.enum && !p.pattern && !p.format;
    if (text && !/prefecture|region|_id$|^id$|unified_id|houjin/.test(field)) args[field] = NOTHING;
  }
  return args;
}

const ANSWERS = new Set(['ok', 'empty', 'no_data', 'insufficient_data']);

function judge(name: string, how: string, r: { isError?: boolean; structuredContent?: unknown }): string | null {
  const body = (r.structuredContent ?? {}) as Json;
  const where = `${name} (${how})`;
  if (r.isError === true) {
    if (body.status !== 'error') return `${where}: isError but status ${body.status}`;
    if (typeof body.error?.detail !== 'string' || body.error.detail.length < 10) return `${where}: a failure without REST's detail`;
    return null;
  }
  if (body.status === 'error' || (body.error?.code && !['no_matching_records'].includes(body.error.code)))
    return `${where}: an error answered without isError (${JSON.stringify(body.error)})`;
  if (!ANSWERS.has(body.status)) return `${where}: status ${body.status}`;
  if (body.status === 'ok') return null;
  if (!body.coverage || typeof body.coverage !== 'object' || Object.keys(body.coverage).length === 0)
    return `${where}: ${body.status} without coverage: ${JSON.stringify(body).slice(0, 200)}`;
  if (typeof body.explanation !== 'string' || body.explanation.length < 20) return `${where}: ${body.status} without an explanation`;
  return null;
}

test('every tool, called with nothing or with what matches nothing, fails with isError or answers with its coverage', { timeout: 600_000 }, async (t) => {
  const app = await build(t);
  const { key } = await paidKey(app);
  const client = await connectTools(
    t,
    new JpSupportClient({ transport: injectTransport(app), apiKey: key, maxRetries: 0 }),
    'honest-answers',
    Object.keys(TOOLSETS),
  );
  const tools = toolsWith(Object.keys(TOOLSETS));
  const failures: string[] = [];
  let answers = 0;
  for (const def of tools) {
    const schema = publishedInput(def) as { properties?: Record<string, Property>; required?: string[] };
    for (const [how, args] of [
      ['no arguments', {}],
      ['arguments matching nothing', unknownInput(schema.properties ?? {}, schema.required ?? [])],
    ] as const) {
      const r = await client.callTool({ name: def.name, arguments: args });
      answers++;
      const problem = judge(def.name, `${how}: ${JSON.stringify(args)}`, r as never);
      if (problem) failures.push(problem);
    }
  }
  assert.equal(answers, tools.length * 2);
  assert.deepEqual(failures, [], `${failures.length} answer(s) without coverage or isError:\n${failures.join('\n')}`);
});

test('the judge is not vacuous: an empty answer without coverage, and an error without isError, fail it', () => {
  assert.match(String(judge('t', 'x', { structuredContent: { status: 'empty', explanation: 'No program matched these filters.' } })), /without coverage/);
  assert.match(String(judge('t', 'x', { structuredContent: { status: 'ok', error: { code: 'not_found', message: 'm' } } })), /without isError/);
  assert.match(String(judge('t', 'x', { isError: true, structuredContent: { status: 'error', error: {} } })), /without REST's detail/);
  assert.equal(
    judge('t', 'x', { structuredContent: { status: 'empty', coverage: { records_held: 3 }, explanation: 'No case studies matched (3 held).' } }),
    null,
  );
});
