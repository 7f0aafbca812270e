// Adding a programme-search parameter is one entry in the parameter table
// (catalog/programs/parameters.ts): a test-only `municipality` filter added
// here reaches every consumer the table drives — the REST schema and its
// filtering, the OpenAPI document and the client's generated types, saved
// searches, deadline calendars, exports, the explore page's form, and the MCP
// tools' inputs and REST query — without any other code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { z } from 'zod';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { PROGRAM_SEARCH_PARAMETERS, type ProgramSearchParameter } from '../../src/catalog/programs/parameters.ts';
import { publicSearchParameters } from '../../src/catalog/programs/public.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { generateClientTypes } from '../../../../scripts/gen-client-types.ts';
import { generateProgramSearch } from '../../../../scripts/gen-tool-specs.ts';
import { programSearchInput, programSearchQuery, SAVED_KINDS, PAGE_KINDS, type Parameter } from '../../../mcp/src/lib/program-search.ts';
import { body, tempDir, testCatalog } from '../helper.ts';

const municipality = {
  name: 'municipality',
  kind: 'filter',
  schema: Type.String({ minLength: 1, maxLength: 40, description: 'Exact municipality, e.g. 札幌市.' }),
  effect: 'municipality = value.',
  accepts: (row, value) => row.municipality === value,
  tool: { description: 'Municipality of the programme, e.g. 札幌市' },
  form: { control: 'text' },
} as ProgramSearchParameter;

/** The service's table with the new entry after `prefecture`. */
const after = PROGRAM_SEARCH_PARAMETERS.findIndex((p) => p.name === 'prefecture') + 1;
const TABLE = [...PROGRAM_SEARCH_PARAMETERS.slice(0, after), municipality, ...PROGRAM_SEARCH_PARAMETERS.slice(after)];
const CITY = '札幌市';

test('one table entry reaches the REST search, OpenAPI, client types, saved searches, calendars, exports, the explore form and the MCP inputs', async (t) => {
  const catalog = await testCatalog();
  const app = await buildApp({ config: loadConfig({ DATA_DIR: tempDir(t), ANON_DAILY_LIMIT: '1000' }), catalog, programSearchParameters: TABLE });
  t.after(() => app.close());
  const expected = catalog.db.get<{ n: number }>('SELECT count(*) AS n FROM programs WHERE municipality = ? AND excluded = 0', CITY)!.n;
  assert.ok(expected > 0, `the test catalogue has programmes of ${CITY}`);

  // REST: validated by the schema, applied by the engine (one row per programme, so at most the records).
  const page = body(await app.inject(`/v1/programs/search?municipality=${encodeURIComponent(CITY)}&limit=100`));
  assert.ok(page.total > 0 && page.total <= expected, `total ${page.total}`);
  assert.ok(page.results.every((r: any) => r.municipality === CITY));
  assert.equal((await app.inject(`/v1/programs/search?municipality=${'x'.repeat(41)}`)).statusCode, 400);
  const withText = body(await app.inject(`/v1/programs/search?q=${encodeURIComponent('補助')}&municipality=${encodeURIComponent(CITY)}`));
  assert.ok(
    withText.results.every((r: any) => r.municipality === CITY),
    'with free text too',
  );

  // The OpenAPI document, and the client's types generated from it.
  const doc = body(await app.inject('/v1/openapi.json'));
  const param = doc.paths['/v1/programs/search'].get.parameters.find((p: any) => p.name === 'municipality');
  assert.equal(param?.schema?.description ?? param?.description, 'Exact municipality, e.g. 札幌市.');
  assert.match(generateClientTypes(doc), /export type SearchProgramsQuery = \{[^}]*\bmunicipality\?: string;/s);

  // Saved searches keep it (and refuse a value the schema refuses); calendars and exports apply it.
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  const headers = { 'x-api-key': k.key };
  const saved = await app.inject({ method: 'POST', url: '/v1/me/saved_searches', headers, payload: { name: CITY, query: { municipality: CITY } } });
  assert.equal(saved.statusCode, 201, saved.body);
  assert.equal(body(saved).query.municipality, CITY);
  const refused = await app.inject({ method: 'POST', url: '/v1/me/saved_searches', headers, payload: { name: 'x', query: { municipality: '' } } });
  assert.equal(refused.statusCode, 400);
  const calendar = await app.inject({ url: `/v1/calendar/deadlines?include_past=true&municipality=${encodeURIComponent(CITY)}`, headers });
  assert.equal(calendar.statusCode, 200, calendar.body);
  const exported = await app.inject({ url: `/v1/programs/search?municipality=${encodeURIComponent(CITY)}&format=jsonl`, headers });
  assert.equal(exported.statusCode, 200, exported.body);
  const rows = exported.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(rows.length, page.total);
  assert.ok(rows.every((r) => r.municipality === CITY));

  // The explore page renders a control for it and hands it to the page script.
  const explore = (await app.inject('/explore')).body;
  assert.match(explore, /<input id="municipality" name="municipality" type="text"/);
  assert.match(explore, /data-fields="[^"]*municipality/);

  // The MCP tools: the published part carries it, and the tools' inputs and REST query take it.
  const published = publicSearchParameters(TABLE) as Parameter[];
  assert.match(generateProgramSearch(TABLE), /"name": "municipality"/);
  for (const kinds of [PAGE_KINDS, SAVED_KINDS]) {
    const input = z.object(programSearchInput(kinds, published));
    const args = input.parse({ municipality: CITY });
    const warnings: unknown[] = [];
    const query = programSearchQuery({ api: null as never, warn: (w) => warnings.push(w) }, args, kinds, published);
    assert.equal(query.municipality, CITY);
    assert.equal(input.safeParse({ municipality: 'x'.repeat(41) }).success, false);
  }
});
