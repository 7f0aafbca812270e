// The record-set tools apply the filters they advertise, on real records of
// the bundled dataset: the parameters the reference surface names
// (event_type, legal_basis, program_name_hint, min/max_improper_grant_yen,
// provider, loan_type, min/max_amount_yen, max_interest_rate,
// min_loan_period_years, law_type) reach the REST filter of the spec, and
// the ones without data are not advertised.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JpSupportClient, injectTransport } from '@jp-support/client';
import { build } from '../../api/test/helper.ts';
import { connectTools, paidKey } from './fixtures.ts';

type Json = Record<string, any>;

test('record-set tools: the advertised filters select the matching records', async (t) => {
  const app = await build(t);
  const { key } = await paidKey(app);
  const client = await connectTools(t, new JpSupportClient({ transport: injectTransport(app), apiKey: key, maxRetries: 0 }));
  const call = async (name: string, args: Json): Promise<Json> => {
    const result = await client.callTool({ name, arguments: { limit: 100, fields: 'full', ...args } });
    assert.equal(result.isError, undefined, `${name} ${JSON.stringify(args)}`);
    const body = result.structuredContent as Json;
    assert.equal(body.error, undefined, `${name} ${JSON.stringify(args)}: ${JSON.stringify(body.error)}`);
    assert.deepEqual(body.input_warnings ?? [], [], `${name} applies every argument`);
    return body;
  };
  const every = (body: Json, holds: (r: Json) => boolean, what: string) => {
    assert.ok(body.total > 0, `${what}: some records`);
    for (const row of body.results) assert.ok(holds(row), `${what}: ${JSON.stringify(row).slice(0, 160)}`);
  };

  every(await call('search_enforcement_cases', { event_type: '業務改善命令' }), (r) => r.action_type === '業務改善命令', 'event_type');
  every(
    await call('search_enforcement_cases', { legal_basis: '金融商品取引法' }),
    (r) => `${r.related_law_text ?? ''}${JSON.stringify(r.related_laws ?? [])}`.includes('金融商品取引法'),
    'legal_basis',
  );
  every(
    await call('search_enforcement_cases', { program_name_hint: '雇用調整助成金' }),
    (r) => r.program_name_at_publication.includes('雇用調整助成金'),
    'program_name_hint',
  );
  every(
    await call('search_enforcement_cases', { min_improper_grant_yen: 1_000_000, max_improper_grant_yen: 2_000_000 }),
    (r) => r.improper_amount_yen >= 1_000_000 && r.improper_amount_yen <= 2_000_000,
    'improper amount',
  );
  every(
    await call('search_enforcement_cases', { ministry: '金融庁', disclosed_from: '2025-01-01' }),
    (r) => `${r.authority}${r.bureau ?? ''}`.includes('金融庁') && r.action_date >= '2025-01-01',
    'ministry and dates',
  );

  every(
    await call('search_loan_programs', { provider: '日本政策金融公庫' }),
    (r) => r.provider.includes('日本政策金融公庫') && r.plan_type === 'loan',
    'provider',
  );
  every(await call('search_loan_programs', { loan_type: '国民生活事業' }), (r) => r.loan_type === '国民生活事業', 'loan_type');
  every(
    await call('search_loan_programs', { min_amount_yen: 30_000_000 }),
    (r) => (r.amount_max_yen ?? r.amount_max_man_yen * 10_000) >= 30_000_000,
    'min_amount_yen',
  );
  // rates are per cent: product 1's 0.041 (a fraction in its source) reads 4.1, product 12 states 1.5 (decision 0397)
  assert.deepEqual(
    (await call('search_loan_programs', { max_interest_rate: 2 })).results.map((r: Json) => r.id),
    ['12'],
  );
  assert.equal((await call('search_loan_programs', { min_loan_period_years: 20 })).total, 2);

  const constitution = await call('search_laws', { law_type: 'constitution', currently_effective_only: false });
  assert.deepEqual(
    constitution.results.map((r: Json) => r.title),
    ['日本国憲法'],
  );
  every(
    await call('search_laws', { law_type: 'cabinet_order', ministry: 'mof-nta' }),
    (r) => r.ministry_code === 'mof-nta' && r.status === 'active',
    'law_type',
  );

  every(
    await call('search_case_studies', { program_used: 'DX/デジタル化', min_employees: 50 }),
    (r) => r.pattern_tags.includes('DX/デジタル化') && r.employees >= 50,
    'program_used and min_employees',
  );

  const { tools } = await client.listTools();
  const caseTool = tools.find((tool) => tool.name === 'search_case_studies')!;
  assert.ok(!('min_subsidy_yen' in (caseTool.inputSchema.properties ?? {})), 'no amount filter over records without amounts');
  assert.match(caseTool.description ?? '', /no award amounts/);
});
