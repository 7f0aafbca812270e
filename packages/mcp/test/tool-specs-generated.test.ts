// The public parts of the API's tool specs, written into this package by
// `npm run gen:tool-specs`, match the record-set specs and programme search's
// parameter table of packages/api.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateProgramSearch, generateRecordSetTools, PROGRAM_SEARCH_OUTPUT, RECORD_SETS_OUTPUT } from '../../../scripts/gen-tool-specs.ts';

const committed = (file: string) => readFileSync(path.resolve(import.meta.dirname, '../../..', file), 'utf8');

test('generated tool specs are in sync with the API (run `npm run gen:tool-specs`)', () => {
  assert.ok(
    committed(RECORD_SETS_OUTPUT) === generateRecordSetTools(),
    `${RECORD_SETS_OUTPUT} differs from what the specs generate: run \`npm run gen:tool-specs\``,
  );
  assert.ok(
    committed(PROGRAM_SEARCH_OUTPUT) === generateProgramSearch(),
    `${PROGRAM_SEARCH_OUTPUT} differs from what the parameter table generates: run \`npm run gen:tool-specs\``,
  );
});
