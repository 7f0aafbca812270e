// The shared vocabularies: prefecture aliases, company-size spellings, and
// the package compiling to dependency-free JS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  AUDIENCE_TERMS,
  COMPANY_SIZES,
  COMPANY_SIZE_TARGET_TYPES,
  PREFECTURE_NAMES,
  companySizeFromEmployees,
  normalizeCompanySize,
  normalizePrefecture,
  resolvePlace,
} from '../src/index.ts';

test('a place: a prefecture, a municipality alone or after its prefecture; an unknown name says so', () => {
  assert.deepEqual(resolvePlace('大阪'), { prefecture: '大阪府', municipality: null });
  assert.deepEqual(resolvePlace('Osaka'), { prefecture: '大阪府', municipality: null });
  assert.deepEqual(resolvePlace('大阪市'), { prefecture: '大阪府', municipality: '大阪市' });
  assert.deepEqual(resolvePlace('大阪市北区'), { prefecture: '大阪府', municipality: '大阪市' }, 'a ward of a city reads as its city');
  assert.deepEqual(resolvePlace('東京都 府中市'), { prefecture: '東京都', municipality: '府中市' });
  assert.deepEqual(resolvePlace('世田谷区'), { prefecture: '東京都', municipality: '世田谷区' });
  assert.deepEqual(resolvePlace('大阪府世田谷区'), { problem: 'unknown' }, 'a municipality of another prefecture');
  assert.deepEqual(resolvePlace('アトランティス'), { problem: 'unknown' });
});

test('47 prefectures; names, short forms and romaji normalise to the full name', () => {
  assert.equal(PREFECTURE_NAMES.length, 47);
  assert.equal(new Set(PREFECTURE_NAMES).size, 47);
  for (const [alias, name] of [
    ['東京', '東京都'],
    ['Tokyo', '東京都'],
    ['tokyo', '東京都'],
    ['tokyo-to', '東京都'],
    ['osaka-fu', '大阪府'],
    ['北海道', '北海道'],
    ['ＴＯＫＹＯ', '東京都'],
    [' 京都 ', '京都府'],
    ['kagoshima ken', '鹿児島県'],
  ]) {
    assert.equal(normalizePrefecture(alias), name, alias);
  }
  assert.equal(normalizePrefecture('Atlantis'), null);
  assert.equal(normalizePrefecture(''), null);
});

test('every company-size spelling of the reference tools maps onto one of the five sizes', () => {
  const spellings: Record<string, string> = {
    // sole/small/medium/large (subsidy_roadmap_3yr, regulatory_prep_pack)
    sole: 'sole',
    small: 'small',
    medium: 'sme',
    large: 'large',
    // sole/small/sme/mid/large (search_certifications, list_open_programs, active_programs_at)
    sme: 'sme',
    mid: 'midsize',
    // sme/midsize/large/individual (search_gx_programs_am)
    midsize: 'midsize',
    individual: 'sole',
    // Japanese terms
    個人事業主: 'sole',
    小規模事業者: 'small',
    中小企業: 'sme',
    中堅企業: 'midsize',
    大企業: 'large',
  };
  for (const [spelling, size] of Object.entries(spellings)) assert.equal(normalizeCompanySize(spelling), size, spelling);
  assert.equal(normalizeCompanySize('MEDIUM'), 'sme');
  assert.equal(normalizeCompanySize('municipality'), null, 'an applicant kind is not a size');
  assert.deepEqual(Object.keys(COMPANY_SIZE_TARGET_TYPES).sort(), [...COMPANY_SIZES].sort());
  assert.ok(!COMPANY_SIZE_TARGET_TYPES.sole.includes('法人'), 'a sole proprietor is not a corporation');
  assert.ok(COMPANY_SIZE_TARGET_TYPES.small.includes('小規模事業者'));
  for (const types of Object.values(COMPANY_SIZE_TARGET_TYPES)) for (const t of types) assert.ok(AUDIENCE_TERMS.includes(t), `${t} is an audience term`);
  assert.deepEqual([0, 20, 21, 300, 301, 2000, 2001].map(companySizeFromEmployees), ['small', 'small', 'sme', 'sme', 'midsize', 'midsize', 'large']);
});

test('`npm run build -w packages/vocab` emits JS + .d.ts that load with no dependencies', async (t) => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const out = mkdtempSync(path.join(tmpdir(), 'jpsp-vocab-build-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', path.join(root, 'packages/vocab/tsconfig.build.json'), '--outDir', out], {
    cwd: root,
    stdio: 'pipe',
  });
  for (const f of ['index.js', 'index.d.ts', 'prefectures.js', 'company-size.d.ts', 'programme-vocabulary.json'])
    assert.ok(existsSync(path.join(out, f)), `${f} emitted`);
  assert.doesNotMatch(readFileSync(path.join(out, 'index.js'), 'utf8'), /from ["'][^."']/, 'no bare (package) imports');
  const mod = (await import(pathToFileURL(path.join(out, 'index.js')).href)) as typeof import('../src/index.ts');
  assert.equal(mod.normalizePrefecture('Tokyo'), '東京都');
  assert.equal(mod.normalizePurpose('startup'), '創業', 'the vocabulary data travels with the build');
  const pkg = JSON.parse(readFileSync(path.join(root, 'packages/vocab/package.json'), 'utf8'));
  assert.equal(pkg.private, undefined, 'publishable');
  assert.equal(pkg.dependencies, undefined, 'zero dependencies');
});
