import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { buildTextQuery, ftsPhrase, likeContains, normalizeText } from '../../src/catalog/text-query.ts';

test('normalizeText: NFKC, lower case, control characters and runs of spaces folded', () => {
  assert.equal(normalizeText('ＤＸ　推進\u0000補助金  '), 'dx 推進 補助金');
  assert.equal(normalizeText('ｽﾏｰﾄ'), 'スマート');
  assert.equal(normalizeText('   '), '');
});

test('ftsPhrase: user text becomes one quoted phrase, inner quotes doubled', () => {
  assert.equal(ftsPhrase('abc'), '"abc"');
  assert.equal(ftsPhrase('a"b"c'), '"a""b""c"');
  assert.equal(ftsPhrase('NEAR(x y)'), '"NEAR(x y)"');
});

test('likeContains: %, _ and the escape character are escaped', () => {
  assert.equal(likeContains('50%'), '%50\\%%');
  assert.equal(likeContains('a_b'), '%a\\_b%');
  assert.equal(likeContains('c:\\x'), '%c:\\\\x%');
});

test('buildTextQuery: 3+ character terms go to FTS, shorter ones to LIKE', () => {
  assert.deepEqual(buildTextQuery('スマート農業'), { match: '"スマート農業"', likes: [] });
  assert.deepEqual(buildTextQuery('創業'), { match: null, likes: ['%創業%'] });
  assert.deepEqual(buildTextQuery('IT導入 補助'), { match: '"it導入"', likes: ['%補助%'] });
  assert.deepEqual(buildTextQuery('AND OR NOT'), { match: '"and" AND "not"', likes: ['%or%'] });
  assert.equal(buildTextQuery('  \u0000 '), null);
});

test('buildTextQuery counts code points: an emoji or kanji is one character', () => {
  assert.deepEqual(buildTextQuery('😀😀'), { match: null, likes: ['%😀😀%'] });
  assert.deepEqual(buildTextQuery('😀😀😀'), { match: '"😀😀😀"', likes: [] });
});

test('every hostile query compiles as FTS5 and LIKE without syntax errors', () => {
  const db = new DatabaseSync(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(a, tokenize='trigram'); INSERT INTO t VALUES ('and near(x) * \"q\" 50% a_b');");
  const hostile = ['AND', 'NEAR(', 'NEAR(a b, 2)', '*', '"', '""', "'", 'a OR b', '^abc', 'col:abc', '-abc', '(abc', '%', '_', '\\', '50%', 'a_b'];
  for (const q of hostile) {
    const built = buildTextQuery(q);
    if (!built) continue;
    if (built.match) assert.doesNotThrow(() => db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').get(built.match), q);
    for (const like of built.likes) {
      assert.doesNotThrow(() => db.prepare("SELECT count(*) FROM t WHERE a LIKE ? ESCAPE '\\'").get(like), q);
    }
  }
  // Escaped LIKE finds the literal, not a wildcard.
  const row = db.prepare("SELECT count(*) AS n FROM t WHERE a LIKE ? ESCAPE '\\'").get(likeContains('0%')) as { n: number };
  assert.equal(row.n, 1);
  const none = db.prepare("SELECT count(*) AS n FROM t WHERE a LIKE ? ESCAPE '\\'").get(likeContains('x_y')) as { n: number };
  assert.equal(none.n, 0);
  db.close();
});
