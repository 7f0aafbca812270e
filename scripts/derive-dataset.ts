// A second dataset version for tests, derived from the bundled one: some
// programmes, enforcement records, tax rulesets and laws added, removed and
// edited, by fixed rules (so the result is the same on every run), written
// into a directory of its own (files it does not change are symlinked).
// Returns the manifest of what it changed: the change events that ingesting
// this dataset after the bundled one must record, exactly once.
//
//   node scripts/derive-dataset.ts [OUT_DIR]     (default var/test-dataset-derived)
//
// A file is rewritten only when its content changes, so the catalogue built
// from the directory stays current (its fingerprint reads mtimes).
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { BUNDLED_DATASET_DIR, REPO_ROOT } from '../packages/api/src/config.ts';
import { canonicalLinks } from '../packages/api/src/ingest/canonical.ts';
import { cleanProgramName } from '../packages/api/src/ingest/names.ts';

type Rec = Record<string, any>;

export interface DerivedManifest {
  /** `<kind>.<change>` -> record ids. */
  events: Record<string, string[]>;
  /** Amended record id -> the dataset fields the script edited. */
  edited: Record<string, string[]>;
  /** Created programmes with an application window (for the calendar tests). */
  windows: Record<string, { start: string | null; end: string | null }>;
}

export const DERIVED_DATASET_DIR = path.join(REPO_ROOT, 'var', 'test-dataset-derived');

async function readLines(file: string): Promise<Rec[]> {
  const input = file.endsWith('.gz') ? createReadStream(file).pipe(createGunzip()) : createReadStream(file);
  const out: Rec[] = [];
  for await (const line of createInterface({ input, crlfDelay: Infinity })) if (line.trim()) out.push(JSON.parse(line));
  return out;
}

function sourceFile(dir: string, name: string): string {
  for (const f of [`${name}.jsonl`, `${name}.jsonl.gz`]) if (existsSync(path.join(dir, f))) return path.join(dir, f);
  throw new Error(`${name}.jsonl(.gz) not found in ${dir}`);
}

/** Write `name`.jsonl unless it already holds exactly these lines. */
function writeIfChanged(dir: string, name: string, records: Rec[]): void {
  const file = path.join(dir, `${name}.jsonl`);
  const text = `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
  if (existsSync(file) && !lstatSync(file).isSymbolicLink() && readFileSync(file, 'utf8') === text) return;
  rmSync(file, { force: true });
  writeFileSync(file, text);
}

const byId = (field: string) => (a: Rec, b: Rec) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0);

export async function deriveDataset(sourceDir = BUNDLED_DATASET_DIR, outDir = DERIVED_DATASET_DIR): Promise<DerivedManifest> {
  mkdirSync(outDir, { recursive: true });
  const manifest: DerivedManifest = { events: {}, edited: {}, windows: {} };
  const note = (type: string, id: string) => (manifest.events[type] ??= []).push(id);
  const changed = new Set<string>();

  // Programmes: only ordinary ones (not excluded, not in a duplicate group,
  // not one programme with another record by the ingest's canonical rules,
  // not named by a law reference or an exclusion rule), so that no other
  // programme's derived fields move with them and each is followed by the feed.
  const programs = await readLines(sourceFile(sourceDir, 'programs'));
  const linked = new Set<string>();
  for (const name of ['program_duplicates', 'program_law_refs', 'exclusion_rules']) {
    const text = JSON.stringify(await readLines(sourceFile(sourceDir, name)));
    for (const m of text.matchAll(/UNI-[A-Za-z0-9-]+/g)) linked.add(m[0]);
  }
  const names = programs.map((p, pid) => ({
    pid,
    name: cleanProgramName(p.primary_name).name,
    prefecture: p.prefecture ?? null,
    municipality: p.municipality ?? null,
  }));
  for (const link of canonicalLinks(names)) for (const pid of [link.a, link.b]) linked.add(programs[pid].unified_id);
  // Same name (ingest compares the derived place too: this is a superset).
  const byName = new Map<string, string[]>();
  for (const n of names) byName.set(n.name, [...(byName.get(n.name) ?? []), programs[n.pid].unified_id]);
  for (const ids of byName.values()) if (ids.length > 1) for (const id of ids) linked.add(id);
  const ordinary = programs.filter((p) => !p.excluded && p.tier && p.tier !== 'X' && !linked.has(p.unified_id) && p.slug === null).sort(byId('unified_id'));
  const pick = (test: (p: Rec) => boolean, skip: Set<string>) => {
    const found = ordinary.find((p) => test(p) && !skip.has(p.unified_id));
    if (!found) throw new Error('no programme fits a derivation rule');
    skip.add(found.unified_id);
    return found;
  };
  const used = new Set<string>();
  const moreMoney = pick((p) => p.amount_max_man_yen !== null && p.prefecture !== '東京都' && p.prefecture !== null, used);
  const newWindow = pick((p) => p.prefecture === '東京都', used);
  const renamed = pick((p) => p.prefecture === '大阪府', used);
  // Few ordinary programmes of 東京都 are left once programmes of several records are set aside: the second removal is of any prefecture.
  const gone = [pick((p) => p.prefecture === '北海道', used), pick((p) => p.prefecture !== null && p.prefecture !== '北海道', used)];
  moreMoney.amount_max_man_yen = moreMoney.amount_max_man_yen * 2;
  manifest.edited[moreMoney.unified_id] = ['amount_max_man_yen'];
  newWindow.application_window = { start: '2026-07-01', end: '2026-08-31', cycle: null, fiscal_year: null, submission_route: null };
  manifest.edited[newWindow.unified_id] = ['application_window'];
  manifest.windows[newWindow.unified_id] = { start: '2026-07-01', end: '2026-08-31' };
  renamed.primary_name = `${renamed.primary_name}（令和8年度）`;
  manifest.edited[renamed.unified_id] = ['primary_name'];
  for (const p of [moreMoney, newWindow, renamed]) note('program.amended', p.unified_id);
  const kept = programs.filter((p) => !gone.includes(p));
  for (const p of gone) note('program.removed', p.unified_id);
  const added = [
    { id: 'UNI-derived-0001', name: '東京都テスト追加創業支援補助金', prefecture: '東京都', window: { start: '2026-06-01', end: '2026-06-30' } },
    { id: 'UNI-derived-0002', name: '東京都テスト追加設備投資補助金', prefecture: '東京都', window: { start: null, end: '2026-09-15' } },
    { id: 'UNI-derived-0003', name: '北海道テスト追加販路開拓補助金', prefecture: '北海道', window: { start: '2026-05-10', end: '2026-10-31' } },
  ];
  for (const a of added) {
    kept.push({
      ...newWindow,
      unified_id: a.id,
      primary_name: a.name,
      prefecture: a.prefecture,
      municipality: null,
      authority_level: 'prefecture',
      authority_name: a.prefecture,
      tier: 'B',
      amount_max_man_yen: 300,
      slug: null,
      name_as_published: null,
      application_window: { start: a.window.start, end: a.window.end, cycle: null, fiscal_year: '令和8年度', submission_route: 'direct' },
      source_url: `https://www.example.lg.jp/${a.id.toLowerCase()}.html`,
      _provenance: {},
    });
    note('program.created', a.id);
    manifest.windows[a.id] = a.window;
  }
  writeIfChanged(outDir, 'programs', kept);
  changed.add('programs');

  // Enforcement: one added, one removed, one amount edited.
  const enforcement = (await readLines(sourceFile(sourceDir, 'enforcement'))).sort(byId('enforcement_id'));
  const [enfEdit, enfGone] = [enforcement[0], enforcement[1]];
  enfEdit.amount_yen = (enfEdit.amount_yen ?? 0) + 1000;
  manifest.edited[enfEdit.enforcement_id] = ['amount_yen'];
  note('enforcement.amended', enfEdit.enforcement_id);
  note('enforcement.removed', enfGone.enforcement_id);
  const enfNew = { ...enforcement[2], enforcement_id: 'act-derived-1', title: 'テスト追加処分', houjin_bangou: null };
  note('enforcement.created', enfNew.enforcement_id);
  writeIfChanged(outDir, 'enforcement', [...enforcement.filter((e) => e !== enfGone), enfNew]);
  changed.add('enforcement');

  // Tax rulesets: one sunset moved, one removed.
  const tax = (await readLines(sourceFile(sourceDir, 'tax_rulesets'))).sort(byId('unified_id'));
  const [taxEdit, taxGone] = [tax[0], tax[1]];
  taxEdit.effective_until = '2028-03-31';
  manifest.edited[taxEdit.unified_id] = ['effective_until'];
  note('tax_ruleset.amended', taxEdit.unified_id);
  note('tax_ruleset.removed', taxGone.unified_id);
  writeIfChanged(
    outDir,
    'tax_rulesets',
    tax.filter((r) => r !== taxGone),
  );
  changed.add('tax_rulesets');

  // Laws: one added, one repealed (laws are referenced by articles and programmes: none removed).
  const laws = await readLines(sourceFile(sourceDir, 'laws'));
  const withSlug = laws.filter((l) => l.law_slug).sort(byId('law_slug'));
  const lawEdit = withSlug.find((l) => l.status === 'active')!;
  lawEdit.status = 'repealed';
  manifest.edited[lawEdit.law_slug] = ['status'];
  note('law.amended', lawEdit.law_slug);
  const lawNew = { ...withSlug[0], law_slug: 'derived-test-law', law_id: 'LAW-d0d0d0d0d0', title: 'テスト追加法', egov_law_id: null, related_program_count: 0 };
  note('law.created', lawNew.law_slug);
  writeIfChanged(outDir, 'laws', [...laws, lawNew]);
  changed.add('laws');

  // Every other file: a symlink to the bundled one.
  for (const f of readdirSync(sourceDir)) {
    const name = f.replace(/\.jsonl(\.gz)?$/, '');
    if (changed.has(name)) continue;
    const target = path.join(outDir, f);
    if (existsSync(target)) continue;
    symlinkSync(path.join(sourceDir, f), target);
  }
  for (const name of changed) rmSync(path.join(outDir, `${name}.jsonl.gz`), { force: true });
  for (const list of Object.values(manifest.events)) list.sort();
  return manifest;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = path.resolve(process.argv[2] ?? DERIVED_DATASET_DIR);
  const manifest = await deriveDataset(BUNDLED_DATASET_DIR, out);
  process.stdout.write(`${JSON.stringify({ dir: out, ...manifest }, null, 2)}\n`);
}
