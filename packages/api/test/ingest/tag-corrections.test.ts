// Reviewed corrections of the purposes, audiences and industries the dataset gives
// (ingest/tag-corrections.ts, data/overrides/tag-corrections.jsonl): the rule that finds
// unsupported given values, the file's discipline, and what the built catalogue serves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { BUNDLED_DATASET_DIR } from '../../src/config.ts';
import { CORRECTED, givenTagsWithoutEvidence, readTagCorrections, withTagCorrections } from '../../src/ingest/tag-corrections.ts';
import { cleanProgramName } from '../../src/ingest/names.ts';
import { tempDir, testCatalog } from '../helper.ts';
import { taggingInput } from './tagging-input.ts';

const input = taggingInput;

test('the rule: a given purpose nothing in the record supports, an industry its name contradicts or a labour measure given 医療，福祉', () => {
  const farmJobs = givenTagsWithoutEvidence(input({ name: '雇用就農資金', fundingPurpose: ['設備投資', '施設建設', '人件費', '研修費', '環境対応'] }));
  assert.deepEqual(farmJobs, [{ field: 'funding_purpose', values: ['設備投資', '人材育成', '省エネ・脱炭素'] }], 'expense categories read as purposes');
  assert.deepEqual(
    givenTagsWithoutEvidence(input({ name: '東京都ゼロエミッション化省エネ設備導入支援事業', fundingPurpose: ['設備投資', '環境対応'] })),
    [],
    'supported by the name',
  );
  assert.deepEqual(givenTagsWithoutEvidence(input({ name: '人材開発支援助成金', programKind: 'subsidy', jsicMajors: ['P'] })), [
    { field: 'jsic_majors', values: ['P'] },
  ]);
  assert.deepEqual(givenTagsWithoutEvidence(input({ name: '介護職員キャリアアップ助成金', jsicMajors: ['P'] })), [], 'a care employer is in 医療，福祉');
  assert.deepEqual(
    givenTagsWithoutEvidence(input({ name: '有機JAS認証新規取得費補助金', jsicMajors: ['Q'] })),
    [{ field: 'jsic_majors', values: ['Q'] }],
    'the name says farming',
  );
  assert.deepEqual(givenTagsWithoutEvidence(input({ name: 'AMED 腎疾患実用化研究事業', jsicMajors: ['L', 'P'] })), [], 'no contradiction: kept');
});

test('the file: each line reviewed data (a known field, vocabulary values, the given value, a reason), one line per record and field', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'tag-corrections.jsonl');
  const line = { unified_id: 'UNI-a', field: 'funding_purpose', given: ['環境対応'], values: ['資金繰り'], reason: 'a safety-net loan' };
  writeFileSync(file, `// comment\n${JSON.stringify(line)}\n`);
  assert.equal(readTagCorrections(file).get('UNI-a')?.[0].reason, 'a safety-net loan');
  for (const bad of [
    { ...line, reason: '' },
    { ...line, field: 'tier' },
    { ...line, values: ['省エネ'] },
    { ...line, given: undefined },
  ]) {
    writeFileSync(file, JSON.stringify(bad));
    assert.throws(() => readTagCorrections(file), /tag-corrections\.jsonl:1: needs/, JSON.stringify(bad));
  }
  writeFileSync(file, `${JSON.stringify(line)}\n${JSON.stringify(line)}`);
  assert.throws(() => readTagCorrections(file), /tag-corrections\.jsonl:2: a second line/);
  // A line applies only while the dataset gives the value it was reviewed against; [] lets the rules derive the field.
  const corrections = readTagCorrections(file.replace(/\.jsonl$/, '-none.jsonl'));
  assert.equal(corrections.size, 0, 'no file, no corrections');
  const one = new Map([['UNI-a', [line as never]]]);
  assert.deepEqual(withTagCorrections({ unified_id: 'UNI-a', funding_purpose: ['環境対応'] }, one), {
    record: { unified_id: 'UNI-a', funding_purpose: ['資金繰り'] },
    corrected: ['funding_purpose'],
  });
  assert.deepEqual(withTagCorrections({ unified_id: 'UNI-a', funding_purpose: ['省エネ'] }, one).corrected, [], 'upstream changed: review again');
  const cleared = new Map([['UNI-a', [{ ...line, values: [] } as never]]]);
  assert.equal(withTagCorrections({ unified_id: 'UNI-a', funding_purpose: ['環境対応'] }, cleared).record.funding_purpose, null);
});

interface RawRecord {
  unified_id: string;
  primary_name: string;
  program_kind?: string | null;
  authority_name?: string | null;
  funding_purpose?: string[] | null;
  target_types?: string[] | null;
  jsic_majors?: string[] | null;
}

test("the repository's corrections: each was found by the rule on the bundled dataset and still applies", () => {
  const corrections = readTagCorrections();
  const lines = [...corrections.values()].flat();
  assert.ok(lines.length >= 60, `${lines.length} corrections`);
  const text = gunzipSync(readFileSync(path.join(BUNDLED_DATASET_DIR, 'programs.jsonl.gz'))).toString('utf8');
  const records = new Map<string, RawRecord>();
  for (const l of text.split('\n')) {
    if (!l) continue;
    const r = JSON.parse(l) as RawRecord;
    if (corrections.has(r.unified_id)) records.set(r.unified_id, r);
  }
  for (const c of lines) {
    const r = records.get(c.unified_id);
    assert.ok(r, `${c.unified_id} is in the dataset`);
    assert.deepEqual(r[c.field] ?? [], c.given, `${c.unified_id} ${c.field}: the dataset still gives what was reviewed`);
    const found = givenTagsWithoutEvidence(
      input({
        name: cleanProgramName(r.primary_name).name,
        programKind: r.program_kind ?? null,
        authorityName: r.authority_name ?? null,
        fundingPurpose: r.funding_purpose ?? null,
        targetTypes: r.target_types ?? null,
        jsicMajors: r.jsic_majors ?? null,
      }),
    );
    assert.ok(
      found.some((f) => f.field === c.field),
      `${c.unified_id} ${c.field}: a finding of the rule, not a patch`,
    );
  }
});

test('the built catalogue: a corrected field serves the reviewed value and its provenance says so', async () => {
  const { db } = await testCatalog();
  const row = (id: string) =>
    db.all<{ funding_purpose: string; jsic_majors: string; provenance: string }>(
      'SELECT funding_purpose, jsic_majors, provenance FROM programs WHERE unified_id = ?',
      id,
    )[0];
  const farmJobs = row('UNI-76ff1702bc');
  assert.deepEqual(JSON.parse(farmJobs.funding_purpose), ['新規就農', '雇用・人材確保', '人材育成'], '雇用就農資金');
  assert.equal(JSON.parse(farmJobs.provenance).funding_purpose, CORRECTED);
  const training = row('UNI-08c8a33792');
  assert.deepEqual(JSON.parse(training.jsic_majors), [], '人材開発支援助成金 serves every trade');
  assert.match(JSON.parse(training.provenance).jsic_majors, /^corrected:reviewed/);
});
