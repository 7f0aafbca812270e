// Line-by-line reading of the dataset's JSON Lines files, plain or gzipped.
// Every line is reported with its 1-based number so that a rejected record
// can be named precisely in the ingest report.
import { createReadStream, existsSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import path from 'node:path';

export type JsonlLine = { lineNo: number; ok: true; record: Record<string, unknown> } | { lineNo: number; ok: false; error: string };

/** Resolve `name.jsonl` or `name.jsonl.gz` inside a dataset directory; null when neither exists. */
export function datasetFile(dir: string, name: string): string | null {
  for (const candidate of [`${name}.jsonl`, `${name}.jsonl.gz`]) {
    const full = path.join(dir, candidate);
    if (existsSync(full)) return full;
  }
  return null;
}

export async function* readJsonl(file: string): AsyncGenerator<JsonlLine> {
  const raw = createReadStream(file);
  const input = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      yield { lineNo, ok: false, error: `invalid JSON (${(err as Error).message})` };
      continue;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      yield { lineNo, ok: false, error: 'line is not a JSON object' };
      continue;
    }
    yield { lineNo, ok: true, record: parsed as Record<string, unknown> };
  }
}
