// The record-set tools' public part, written into this package by
// `npm run gen:record-set-tools`, matches the specs of packages/api.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_OUTPUT, generateRecordSetTools } from '../../../scripts/gen-record-set-tools.ts';

test('generated record-set tool data is in sync with the specs (run `npm run gen:record-set-tools`)', () => {
  const committed = readFileSync(path.resolve(import.meta.dirname, '../../..', DEFAULT_OUTPUT), 'utf8');
  assert.ok(committed === generateRecordSetTools(), `${DEFAULT_OUTPUT} differs from what the specs generate: run \`npm run gen:record-set-tools\``);
});
