// The rules that link records of one programme (src/ingest/canonical.ts) as pure functions:
// a short name in brackets, a renamed programme's own name (decision 0314).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aliasKeys, canonicalLinks, successorOwnKey } from '../../src/ingest/canonical.ts';
import { compactKey } from '../../src/catalog/search-text.ts';

test('aliasKeys: a short name in brackets that abbreviates the long one; a component of an umbrella is not one', () => {
  assert.deepEqual(aliasKeys('ものづくり・商業・サービス生産性向上促進補助金 (ものづくり補助金)'), [
    compactKey('ものづくり・商業・サービス生産性向上促進補助金'),
    compactKey('ものづくり補助金'),
  ]);
  assert.equal(aliasKeys('新規就農者育成総合対策事業（経営発展支援事業）'), null, 'a component, not an abbreviation');
  assert.equal(aliasKeys('肥育素牛導入事業（畜産総合振興対策事業）'), null, 'the umbrella in brackets');
});

test('successorOwnKey: a renamed programme is also its own name alone', () => {
  assert.equal(successorOwnKey('デジタル化・AI導入補助金（旧IT導入補助金）'), compactKey('デジタル化・AI導入補助金'));
  assert.equal(successorOwnKey('デジタル化・AI導入補助金'), null);
});

test('canonicalLinks: an alias joins both names in its place; categories, other places and an umbrella stay apart', () => {
  const m = (pid: number, name: string, prefecture: string | null = null) => ({ pid, name, prefecture, municipality: null });
  const links = canonicalLinks([
    m(1, 'ものづくり補助金'),
    m(2, 'ものづくり補助金（グローバル枠）'),
    m(3, 'ものづくり・商業・サービス生産性向上促進補助金'),
    m(4, 'ものづくり・商業・サービス生産性向上促進補助金 (ものづくり補助金)'),
    m(5, 'ものづくり補助金', '東京都'),
    m(6, '新規就農者育成総合対策事業'),
    m(7, '経営発展支援事業'),
    m(8, '新規就農者育成総合対策事業（経営発展支援事業）'),
    m(9, 'デジタル化・AI導入補助金（旧IT導入補助金）'),
    m(10, 'デジタル化・AI導入補助金'),
  ]);
  const pairs = new Set(links.map((l) => `${Math.min(l.a, l.b)}-${Math.max(l.a, l.b)}:${l.rule}`));
  assert.ok(pairs.has('3-4:alias') && pairs.has('1-4:alias'));
  assert.ok(pairs.has('9-10:successor'), 'a renamed programme and its own name alone');
  assert.ok(![...pairs].some((p) => p.startsWith('1-2') || p.startsWith('2-')), 'a category stays apart');
  assert.ok(![...pairs].some((p) => /-5:/.test(p)), 'another place stays apart');
  assert.ok(![...pairs].some((p) => /^(6|7)-(7|8):alias/.test(p)), 'an umbrella and its component stay apart');
});
