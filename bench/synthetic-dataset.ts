// A synthetic dataset `factor` times the bundled one, for measuring how the
// service grows with its catalogue (issue 25: a catalogue ten times larger).
// Not data to serve: bench material, written under var/ and built on demand.
//
//   node bench/synthetic-dataset.ts --factor 10 [--seed 25] [--out DIR]
//
// The bundled programmes are kept as they are; the further records are
// recombined from them, so that search terms and filters keep the
// selectivity they have on the real catalogue (a word in 1 % of the names is
// in about 1 % of the synthetic ones; a prefecture's share stays its share):
// - a template record gives the programme: its name without its place, kind,
//   tier, purposes, audiences, industries, application window, fetch dates;
// - a place record of the same shape gives the place: the place a name opens
//   with (宇都宮市…, 福岡 …) or else the prefecture and municipality, with that
//   record's administering body and source URL, so the place evidence ingest
//   reads (ingest/authority-level.ts) agrees with the place;
// - an amount record of the same kind group gives the amounts and the rate;
// - a programme with no place (national, or unknown) is told apart from its
//   template by its name: its trailing bracket swapped for another record's
//   (…助成金（…コース）), or its programme word for a sibling (補助金 ->
//   助成金), or another record's bracket added.
// No two records share a programme key and place (ingest/canonical.ts), so
// ingest keeps them as programmes of their own rather than merging them.
// Every synthetic record says where each part came from (`_provenance.synthetic`).
// The other dataset files are symlinks to the bundled ones. The output is
// deterministic for a (factor, seed) and rewritten only when it differs, so
// the catalogue built from it stays current (its fingerprint reads mtimes).
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MUNICIPALITIES, PREFECTURES } from '@jp-support/vocab';
import { BUNDLED_DATASET_DIR, REPO_ROOT } from '../packages/api/src/config.ts';
import { programmeKey } from '../packages/api/src/ingest/canonical.ts';
import { cleanProgramName } from '../packages/api/src/ingest/names.ts';
import { pick, prng } from './lib/random.ts';

export type Programme = Record<string, unknown> & {
  unified_id: string;
  primary_name: string;
  authority_level?: string | null;
  prefecture?: string | null;
  municipality?: string | null;
  program_kind_group?: string | null;
  _provenance?: Record<string, unknown>;
};

export interface SyntheticOptions {
  sourceDir?: string;
  outDir?: string;
  /** Records of the result over the bundled programmes' count (10: ten times). */
  factor: number;
  seed?: number;
}

export interface SyntheticSummary {
  dir: string;
  bundled: number;
  synthetic: number;
  /** Synthetic records by how their template was told apart: a new place, or a varied name. */
  byShape: Record<Shape, number>;
  /** Whether programmes.jsonl was (re)written (false: it already held these records). */
  written: boolean;
}

export const DEFAULT_SEED = 25;

/** The dataset directory of a factor and seed, under var/. */
export function syntheticDir(factor: number, seed = DEFAULT_SEED): string {
  return path.join(REPO_ROOT, 'var', 'synthetic', `x${factor}-seed${seed}`);
}

type Shape = 'name_place' | 'placed' | 'unplaced';

const MUNICIPALITY_NAMES = new Set(Object.values(MUNICIPALITIES).flat());
const SEPARATOR = /^[\s_・･\u3000]/u;

/** The place a name opens with (a municipality, a prefecture, a prefecture's short name before a separator), as written. */
function leadingPlace(name: string): string | null {
  for (let len = Math.min(8, name.length); len >= 2; len--) if (MUNICIPALITY_NAMES.has(name.slice(0, len))) return name.slice(0, len);
  for (const [full] of PREFECTURES) {
    if (name.startsWith(full)) return full;
    const short = full === '北海道' ? full : full.slice(0, -1);
    if (name.startsWith(short) && SEPARATOR.test(name.slice(short.length))) return short;
  }
  return null;
}

const TRAILING_BRACKET = /[（(][^（）()]{2,30}[）)]$/u;
// Programme words that can stand for one another (a subsidy's name with 助成金 for 補助金 is still a plausible name).
const SIBLINGS = [
  ['補助金', '助成金', '支援金', '交付金', '奨励金', '給付金'],
  ['支援事業', '推進事業', '促進事業', '対策事業'],
];

function shapeOf(p: Programme): Shape {
  const local = p.authority_level !== 'national' && p.authority_level !== 'financial';
  if (local && leadingPlace(p.primary_name) !== null) return 'name_place';
  return p.prefecture ? 'placed' : 'unplaced';
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const list = out.get(k);
    if (list) list.push(t);
    else out.set(k, [t]);
  }
  return out;
}

/** What ingest would call one programme: the name's programme key in one place. */
function programmeIdentity(name: string, prefecture: unknown, municipality: unknown): string {
  return `${programmeKey(cleanProgramName(name).name).key}\u0000${prefecture ?? ''}\u0000${municipality ?? ''}`;
}

/** The synthetic records (without the bundled ones) for `count` more programmes. */
export function synthesise(
  bundled: readonly Programme[],
  count: number,
  seed: number,
  label: string,
): { records: Programme[]; byShape: Record<Shape, number> } {
  const random = prng(seed);
  const shapes = new Map(bundled.map((p) => [p, shapeOf(p)]));
  // Place donors: name-led records by the kind of place they open with, placed records by level.
  const nameLed = groupBy(
    bundled.filter((p) => shapes.get(p) === 'name_place'),
    (p) => (MUNICIPALITY_NAMES.has(leadingPlace(p.primary_name)!) ? 'municipality' : 'prefecture'),
  );
  const placed = groupBy(
    bundled.filter((p) => shapes.get(p) === 'placed'),
    (p) => String(p.authority_level ?? null),
  );
  const amounts = groupBy(bundled, (p) => String(p.program_kind_group ?? null));
  const brackets = [...new Set(bundled.map((p) => TRAILING_BRACKET.exec(p.primary_name)?.[0]).filter((b): b is string => b !== undefined))];
  const taken = new Set(bundled.map((p) => programmeIdentity(p.primary_name, p.prefecture, p.municipality)));
  const ids = new Set(bundled.map((p) => p.unified_id));

  /** A name of the same programme family, told apart from `name`. */
  const varied = (name: string): string => {
    const bracket = TRAILING_BRACKET.exec(name);
    if (bracket && random() < 0.5) return name.slice(0, bracket.index) + pick(random, brackets);
    for (const family of SIBLINGS) {
      const word = family.find((w) => name.endsWith(w));
      if (word && random() < 0.6)
        return (
          name.slice(0, -word.length) +
          pick(
            random,
            family.filter((w) => w !== word),
          )
        );
    }
    return name + pick(random, brackets);
  };

  const records: Programme[] = [];
  const byShape: Record<Shape, number> = { name_place: 0, placed: 0, unplaced: 0 };
  for (let i = 0; records.length < count; i++) {
    const template = pick(random, bundled);
    const shape = shapes.get(template)!;
    const amount = pick(random, amounts.get(String(template.program_kind_group ?? null))!);
    let record: Programme | null = null;
    let how: Shape = shape;
    for (let attempt = 0; attempt < 40 && record === null; attempt++) {
      const r: Programme = { ...template };
      let placeFrom: Programme | null = null;
      if (shape === 'name_place') {
        const ownPlace = leadingPlace(template.primary_name)!;
        placeFrom = pick(random, nameLed.get(MUNICIPALITY_NAMES.has(ownPlace) ? 'municipality' : 'prefecture')!);
        r.primary_name = leadingPlace(placeFrom.primary_name)! + template.primary_name.slice(ownPlace.length);
      } else if (shape === 'placed') {
        placeFrom = pick(random, placed.get(String(template.authority_level ?? null)) ?? [template]);
      }
      if (placeFrom) {
        for (const f of ['prefecture', 'municipality', 'authority_name', 'source_url', 'official_url']) r[f] = placeFrom[f] ?? null;
      }
      // A new place alone does not always tell a programme apart (the same place drawn again, or none): vary the name too.
      how = shape;
      if (shape === 'unplaced' || attempt >= 10) {
        r.primary_name = varied(r.primary_name);
        how = 'unplaced';
      }
      const identity = programmeIdentity(r.primary_name, r.prefecture, r.municipality);
      if (taken.has(identity)) continue;
      taken.add(identity);
      r.amount_max_man_yen = amount.amount_max_man_yen ?? null;
      r.amount_min_man_yen = amount.amount_min_man_yen ?? null;
      r.subsidy_rate = amount.subsidy_rate ?? null;
      // What identified the template's own page or name belongs to it, not to this record.
      for (const f of ['slug', 'name_as_published', 'local_gov_code', 'source_checksum'] as const) r[f] = null;
      let id: string;
      for (let n = 0; ; n++) {
        id = `UNI-syn-${createHash('sha256').update(`${seed}:${i}:${n}`).digest('hex').slice(0, 10)}`;
        if (!ids.has(id)) break;
      }
      ids.add(id);
      r.unified_id = id;
      r._provenance = {
        ...(template._provenance ?? {}),
        synthetic: `${label}: programme of ${template.unified_id}${placeFrom ? `, place of ${placeFrom.unified_id}` : ''}, amounts of ${amount.unified_id}${how === 'unplaced' ? ', name varied' : ''}`,
      };
      record = r;
    }
    if (record === null) continue; // every attempt collided: draw another template
    byShape[how]++;
    records.push(record);
  }
  return { records, byShape };
}

/** The programme records of a dataset directory (programs.jsonl or .jsonl.gz). */
export function readProgrammes(dir: string): Programme[] {
  for (const f of ['programs.jsonl', 'programs.jsonl.gz']) {
    const file = path.join(dir, f);
    if (!existsSync(file)) continue;
    const raw = readFileSync(file);
    const text = f.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Programme);
  }
  throw new Error(`programs.jsonl(.gz) not found in ${dir}`);
}

/** Write the synthetic dataset of `factor` into its directory (see the head of this file). */
export function syntheticDataset(options: SyntheticOptions): SyntheticSummary {
  const seed = options.seed ?? DEFAULT_SEED;
  const sourceDir = options.sourceDir ?? BUNDLED_DATASET_DIR;
  const outDir = options.outDir ?? syntheticDir(options.factor, seed);
  if (!(options.factor >= 1)) throw new Error(`factor must be at least 1 (got ${options.factor})`);
  const bundled = readProgrammes(sourceDir);
  const count = Math.round(bundled.length * options.factor) - bundled.length;
  const { records, byShape } = synthesise(bundled, count, seed, `synthetic x${options.factor} seed ${seed}`);
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'programs.jsonl');
  const text = `${[...bundled, ...records].map((r) => JSON.stringify(r)).join('\n')}\n`;
  const written = !(existsSync(file) && readFileSync(file, 'utf8') === text);
  if (written) writeFileSync(file, text);
  rmSync(path.join(outDir, 'programs.jsonl.gz'), { force: true });
  // Every other file: a symlink to the source's.
  for (const f of readdirSync(sourceDir)) {
    if (f.startsWith('programs.jsonl')) continue;
    const target = path.join(outDir, f);
    if (existsSync(target) || lstatSync(target, { throwIfNoEntry: false })) continue;
    symlinkSync(path.join(sourceDir, f), target);
  }
  return { dir: outDir, bundled: bundled.length, synthetic: records.length, byShape, written };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { factor: { type: 'string', default: '10' }, seed: { type: 'string', default: String(DEFAULT_SEED) }, out: { type: 'string' } },
  });
  const t0 = performance.now();
  const summary = syntheticDataset({ factor: Number(values.factor), seed: Number(values.seed), outDir: values.out ? path.resolve(values.out) : undefined });
  process.stdout.write(`${JSON.stringify({ ...summary, ms: Math.round(performance.now() - t0) }, null, 2)}\n`);
}
