// The entity graph behind /v1/am/*: one heterogeneous table of the 12 record
// kinds (am_entities), typed relations between them (am_relations), lookup
// keys (am_entity_keys), and the compact copies the /v1/am tools read
// (am_law_articles, am_loans, am_enums).
//
// Built from the dataset files themselves (readJsonl), not from the record-set
// tables, so it does not depend on how those tables are shaped at any moment;
// only the typed tables `programs` and `program_law_refs`, `exclusion_rules`,
// `program_duplicates` are read from the database (they load earlier).
// Registered last in LOADERS. Rules (docs/decisions.md, "Entity graph"):
// - entity ids: programs/certifications UNI-…, tax measures TAX-…, laws LAW-…
//   (LAWSLUG-<slug> when upstream has no unique id), enforcement and case ids
//   as published, authorities AUTH-<10 hex of sha256(name)>, corporate
//   entities HB-<13 digits> (check digit verified).
// - certification = a program whose program_kind_group is `certification`.
// - case_study -> program only when a program name of 8+ characters that no
//   other program shares appears verbatim in the case title (conservative).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { datasetFile, readJsonl } from '../jsonl.ts';
import { normalizeText } from '../text-query.ts';
import { tierAndExclusion, type RawProgram } from '../derive.ts';
import type { Loader, LoadContext } from './types.ts';
import {
  articleFromKey, articleSortKey, authorityId, corporateId, datePart, houjinBangouValid, RECORD_KINDS,
} from '../../am/text.ts';

const DDL = `
  CREATE TABLE am_entities (
    entity_id TEXT PRIMARY KEY,
    record_kind TEXT NOT NULL,
    name TEXT NOT NULL,
    name_norm TEXT NOT NULL,
    source_url TEXT,
    fetched_at TEXT,
    valid_from TEXT,
    valid_until TEXT,
    status TEXT,
    prefecture TEXT,
    authority_name TEXT,
    tier TEXT,
    search_text TEXT NOT NULL,
    facts TEXT NOT NULL,
    provenance TEXT NOT NULL,
    record_source TEXT
  ) STRICT;
  CREATE INDEX am_entities_kind ON am_entities (record_kind, name_norm);
  CREATE INDEX am_entities_name ON am_entities (name_norm);
  CREATE INDEX am_entities_valid ON am_entities (record_kind, valid_until);
  CREATE INDEX am_entities_source ON am_entities (source_url);
  CREATE TABLE am_relations (
    src_id TEXT NOT NULL,
    dst_id TEXT NOT NULL,
    relation TEXT NOT NULL,
    source TEXT NOT NULL,
    confidence REAL NOT NULL,
    PRIMARY KEY (src_id, dst_id, relation)
  ) STRICT;
  CREATE INDEX am_relations_dst ON am_relations (dst_id, relation);
  CREATE INDEX am_relations_rel ON am_relations (relation);
  CREATE TABLE am_entity_keys (
    key TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    key_kind TEXT NOT NULL,
    PRIMARY KEY (key, entity_id)
  ) STRICT;
  CREATE TABLE am_law_articles (
    law_key TEXT NOT NULL,
    law_slug TEXT NOT NULL,
    article_key TEXT NOT NULL,
    article_label TEXT,
    article_number_sort INTEGER,
    is_supplementary INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    caption TEXT,
    text TEXT NOT NULL,
    PRIMARY KEY (law_slug, seq)
  ) STRICT;
  CREATE INDEX am_law_articles_number ON am_law_articles (law_key, is_supplementary, article_number_sort);
  CREATE TABLE am_loans (
    loan_key TEXT PRIMARY KEY,
    plan_type TEXT NOT NULL,
    name TEXT NOT NULL,
    name_norm TEXT NOT NULL,
    provider TEXT,
    program_kind TEXT,
    loan_type TEXT,
    prefecture TEXT,
    tier TEXT,
    amount_max_yen INTEGER,
    collateral_required TEXT NOT NULL,
    personal_guarantor_required TEXT NOT NULL,
    third_party_guarantor_required TEXT NOT NULL,
    plan_kind TEXT,
    tax_deduction_type TEXT,
    source_url TEXT,
    data TEXT NOT NULL
  ) STRICT;
  CREATE TABLE am_municipalities (
    municipality_code TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    prefecture TEXT NOT NULL
  ) STRICT;
  CREATE INDEX am_municipalities_name ON am_municipalities (prefecture, name);
  CREATE TABLE am_enums (
    enum TEXT NOT NULL,
    value TEXT NOT NULL,
    label_ja TEXT,
    count INTEGER,
    source TEXT,
    PRIMARY KEY (enum, value)
  ) STRICT;`;

type Rec = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The record without null/empty values and without internal keys. */
function compactFacts(r: Rec, drop: string[] = []): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(r)) {
    if (drop.includes(k) || k.startsWith('_')) continue;
    if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

async function* records(ctx: LoadContext, name: string): AsyncGenerator<Rec> {
  const file = datasetFile(ctx.datasetDir, name);
  if (!file) return;
  for await (const line of readJsonl(file)) if (line.ok) yield line.record;
}

/** Generic 'authority' placeholders that name no body. */
const GENERIC_AUTHORITIES = new Set(['市町村', '都道府県', '市区町村', '国', '各市町村', '各都道府県', '自治体']);

/** mutual-aid plan kind from the plan name (search_mutual_plans_am's vocabulary). */
export function mutualPlanKind(name: string): { plan_kind: string; tax_deduction_type: string } {
  if (/小規模企業共済/.test(name)) return { plan_kind: 'retirement_mutual', tax_deduction_type: 'small_enterprise_deduction' };
  if (/セーフティ共済|倒産防止/.test(name)) return { plan_kind: 'bankruptcy_mutual', tax_deduction_type: 'corp_expense' };
  if (/退職金共済|退共|特退共/.test(name)) return { plan_kind: 'retirement_mutual', tax_deduction_type: 'corp_expense' };
  if (/確定拠出|iDeCo|イデコ/i.test(name)) return { plan_kind: 'dc_pension', tax_deduction_type: 'idekodc' };
  if (/確定給付/.test(name)) return { plan_kind: 'db_pension', tax_deduction_type: 'corp_expense' };
  if (/年金/.test(name)) return { plan_kind: 'industry_pension', tax_deduction_type: 'none' };
  if (/健康保険/.test(name)) return { plan_kind: 'health_insurance', tax_deduction_type: 'none' };
  if (/災害補償|厚生|保険/.test(name)) return { plan_kind: 'welfare_insurance', tax_deduction_type: 'none' };
  return { plan_kind: 'other', tax_deduction_type: 'none' };
}

class Writer {
  readonly entity: StatementSync;
  readonly relation: StatementSync;
  readonly key: StatementSync;
  readonly exists: StatementSync;
  readonly db: DatabaseSync;
  relations = 0;
  constructor(db: DatabaseSync) {
    this.db = db;
    this.entity = db.prepare(`INSERT OR IGNORE INTO am_entities
      (entity_id, record_kind, name, name_norm, source_url, fetched_at, valid_from, valid_until, status, prefecture,
       authority_name, tier, search_text, facts, provenance, record_source)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.relation = db.prepare('INSERT OR IGNORE INTO am_relations (src_id, dst_id, relation, source, confidence) VALUES (?, ?, ?, ?, ?)');
    this.key = db.prepare('INSERT OR IGNORE INTO am_entity_keys (key, entity_id, key_kind) VALUES (?, ?, ?)');
    this.exists = db.prepare('SELECT 1 FROM am_entities WHERE entity_id = ?');
  }

  addEntity(e: {
    id: string; kind: string; name: string; sourceUrl?: string | null; fetchedAt?: string | null;
    validFrom?: string | null; validUntil?: string | null; status?: string | null; prefecture?: string | null;
    authority?: string | null; tier?: string | null; searchExtra?: (string | null | undefined)[]; facts: Rec;
    provenance?: Rec; recordSource?: string | null;
  }): boolean {
    const result = this.entity.run(
      e.id, e.kind, e.name, normalizeText(e.name), e.sourceUrl ?? null, e.fetchedAt ?? null, e.validFrom ?? null,
      e.validUntil ?? null, e.status ?? null, e.prefecture ?? null, e.authority ?? null, e.tier ?? null,
      normalizeText([e.name, ...(e.searchExtra ?? [])].filter(Boolean).join(' | ')),
      JSON.stringify(e.facts), JSON.stringify(e.provenance ?? {}), e.recordSource ?? null,
    );
    return Number(result.changes) > 0;
  }

  addRelation(src: string, dst: string, relation: string, source: string, confidence: number): void {
    if (src === dst) return;
    if (!this.exists.get(src) || !this.exists.get(dst)) return;
    const result = this.relation.run(src, dst, relation, source, confidence);
    this.relations += Number(result.changes);
  }

  addKey(key: string | null | undefined, id: string, kind: string): void {
    const k = key ? normalizeText(key) : '';
    if (k) this.key.run(k, id, kind);
  }
}

async function build(ctx: LoadContext): Promise<number> {
  const w = new Writer(ctx.db);
  const authorities = new Map<string, string>(); // id -> name
  const authorityOf = (name: string | null): string | null => {
    if (!name || GENERIC_AUTHORITIES.has(name.trim())) return null;
    const id = authorityId(name);
    if (!authorities.has(id)) authorities.set(id, name.trim());
    return id;
  };

  // Programs and certifications (full records, to keep `_provenance`).
  const programAuthority: [string, string][] = [];
  const programNames = new Map<string, string[]>(); // normalised name -> ids
  for await (const r of records(ctx, 'programs')) {
    const p = r as unknown as RawProgram & { _provenance?: Rec };
    if (typeof p.unified_id !== 'string' || typeof p.primary_name !== 'string') continue;
    const kind = p.program_kind_group === 'certification' ? 'certification' : 'program';
    const { tier, excluded, exclusion_reason } = tierAndExclusion(p);
    const window = (p.application_window ?? {}) as Rec;
    const facts = compactFacts({ ...r, tier, excluded, exclusion_reason });
    w.addEntity({
      id: p.unified_id, kind, name: p.primary_name, sourceUrl: p.source_url, fetchedAt: p.source_fetched_at,
      validFrom: datePart(window.start), validUntil: datePart(window.end), prefecture: p.prefecture,
      authority: p.authority_name, tier, facts, provenance: (p._provenance as Rec) ?? {},
      searchExtra: [p.name_as_published, p.authority_name, p.prefecture, p.municipality, p.program_kind],
      recordSource: 'programs.jsonl',
    });
    w.addKey(p.slug, p.unified_id, 'slug');
    const auth = authorityOf(p.authority_name ?? null);
    if (auth) programAuthority.push([p.unified_id, auth]);
    const n = normalizeText(p.primary_name);
    programNames.set(n, [...(programNames.get(n) ?? []), p.unified_id]);
  }

  // Tax measures.
  const taxLegalBasis: [string, string[]][] = [];
  for await (const r of records(ctx, 'tax_rulesets')) {
    const id = str(r.unified_id);
    const name = str(r.ruleset_name);
    if (!id || !name) continue;
    w.addEntity({
      id, kind: 'tax_measure', name, sourceUrl: str(r.source_url), fetchedAt: null,
      validFrom: datePart(r.effective_from), validUntil: datePart(r.effective_until), authority: str(r.authority),
      facts: compactFacts(r), recordSource: str(r._source),
      searchExtra: [...((r.legal_basis as string[] | null) ?? []), str(r.rate_or_amount), str(r.calculation_formula), str(r.tax_category), str(r.ruleset_kind)],
    });
    taxLegalBasis.push([id, (r.legal_basis as string[] | null) ?? []]);
  }

  // Laws.
  const lawBySlug = new Map<string, string>();
  const lawsByTitle = new Map<string, string[]>();
  for await (const r of records(ctx, 'laws')) {
    const title = str(r.title);
    const slug = str(r.law_slug);
    const id = str(r.law_id) ?? (slug ? `LAWSLUG-${slug}` : null);
    if (!id || !title) continue;
    const inserted = w.addEntity({
      id, kind: 'law', name: title, sourceUrl: str(r.source_url), fetchedAt: str(r.source_fetched_at),
      validFrom: datePart(r.enforced_on), validUntil: null, status: str(r.status), authority: str(r.ministry_code),
      facts: compactFacts(r), recordSource: slug ? `site/laws/${slug}.md` : 'data/facts_registry.json',
      searchExtra: [str(r.law_number), str(r.category)],
    });
    if (!inserted) continue;
    if (slug) {
      lawBySlug.set(slug, id);
      w.addKey(slug, id, 'slug');
    }
    w.addKey(title, id, 'title');
    w.addKey(str(r.egov_law_id), id, 'egov_law_id');
    w.addKey(str(r.law_number), id, 'law_number');
    const t = normalizeText(title);
    lawsByTitle.set(t, [...(lawsByTitle.get(t) ?? []), id]);
  }
  const uniqueLawByTitle = (title: string): string | null => {
    const ids = lawsByTitle.get(normalizeText(title));
    return ids && ids.length === 1 ? ids[0] : null;
  };

  // Enforcement records and their corporate entities.
  const corporates = new Map<string, { name: string | null; source: string }>();
  const enforcementLinks: { id: string; hb: string | null; laws: string[]; programs: string[]; authority: string | null }[] = [];
  for await (const r of records(ctx, 'enforcement')) {
    const id = str(r.enforcement_id);
    if (!id) continue;
    w.addEntity({
      id, kind: 'enforcement', name: str(r.title) ?? id, sourceUrl: str(r.source_url),
      fetchedAt: str(r.source_fetched_at), validFrom: datePart(r.exclusion_start), validUntil: datePart(r.exclusion_end),
      status: str(r.action_type), prefecture: str(r.prefecture), authority: str(r.authority),
      facts: compactFacts(r), recordSource: str(r._source),
      searchExtra: [str(r.target_name), str(r.houjin_bangou), str(r.program_name_at_publication), str(r.related_law_text)],
    });
    const hb = str(r.houjin_bangou);
    const validHb = hb && houjinBangouValid(hb) ? hb : null;
    if (validHb && !corporates.has(validHb)) corporates.set(validHb, { name: str(r.target_name), source: 'enforcement.jsonl' });
    const laws = ((r.related_laws as Rec[] | null) ?? [])
      .map((l) => (str(l.law_slug) ? lawBySlug.get(l.law_slug as string) : str(l.law_name) ? uniqueLawByTitle(l.law_name as string) : null))
      .filter((x): x is string => !!x);
    const programs = ((r.related_programs_auto as Rec[] | null) ?? []).map((p) => str(p.unified_id)).filter((x): x is string => !!x);
    enforcementLinks.push({ id, hb: validHb, laws, programs, authority: authorityOf(str(r.authority)) });
  }

  // Case studies.
  const caseLinks: { id: string; hb: string | null; title: string }[] = [];
  for await (const r of records(ctx, 'case_studies')) {
    const id = str(r.case_id);
    if (!id) continue;
    const title = str(r.title) ?? id;
    w.addEntity({
      id, kind: 'case_study', name: title, sourceUrl: str(r.source_url), fetchedAt: str(r.source_fetched_at),
      prefecture: str(r.prefecture), facts: compactFacts(r), recordSource: str(r._source),
      searchExtra: [str(r.company_name), str(r.industry_name), ...((r.pattern_tags as string[] | null) ?? [])],
    });
    const hb = str(r.houjin_bangou);
    const validHb = hb && houjinBangouValid(hb) ? hb : null;
    if (validHb && !corporates.has(validHb)) corporates.set(validHb, { name: str(r.company_name), source: 'case_studies.jsonl' });
    caseLinks.push({ id, hb: validHb, title });
  }

  for (const [hb, c] of corporates) {
    w.addEntity({
      id: corporateId(hb), kind: 'corporate_entity', name: c.name ?? hb, facts: { houjin_bangou: hb, name: c.name },
      recordSource: c.source, searchExtra: [hb],
    });
    w.addKey(hb, corporateId(hb), 'houjin_bangou');
  }
  for (const [id, name] of authorities) {
    w.addEntity({ id, kind: 'authority', name, facts: { name }, recordSource: 'derived:authority_name' });
  }

  // Relations.
  const refs = ctx.db.prepare('SELECT unified_id, law_id, law_slug, derived_by FROM program_law_refs').all() as
    { unified_id: string; law_id: string | null; law_slug: string; derived_by: string | null }[];
  for (const ref of refs) {
    const law = ref.law_id ?? lawBySlug.get(ref.law_slug) ?? null;
    if (law) w.addRelation(ref.unified_id, law, 'based_on_law', 'program_law_refs', ref.derived_by === 'fts' ? 0.6 : 0.9);
  }
  const rules = ctx.db.prepare('SELECT rule_id, kind, legs FROM exclusion_rules').all() as { rule_id: string; kind: string; legs: string }[];
  for (const rule of rules) {
    const legs = JSON.parse(rule.legs) as { unified_ids: string[] }[];
    const [a, ...others] = legs;
    if (!a) continue;
    const relation = rule.kind === 'prerequisite' ? 'prerequisite' : 'incompatible';
    for (const src of a.unified_ids) {
      for (const leg of others) for (const dst of leg.unified_ids) w.addRelation(src, dst, relation, `exclusion_rules:${rule.rule_id}`, 1);
    }
  }
  const groups = ctx.db.prepare('SELECT group_name, winner_uid, unified_ids FROM program_duplicates').all() as
    { group_name: string; winner_uid: string | null; unified_ids: string }[];
  for (const g of groups) {
    const ids = JSON.parse(g.unified_ids) as string[];
    const hub = g.winner_uid && ids.includes(g.winner_uid) ? g.winner_uid : ids[0];
    for (const id of ids) w.addRelation(hub, id, 'similar', 'program_duplicates', 0.8);
  }
  for (const [program, auth] of programAuthority) w.addRelation(program, auth, 'administered_by', 'programs.authority_name', 0.9);
  for (const e of enforcementLinks) {
    if (e.hb) w.addRelation(e.id, corporateId(e.hb), 'targets', 'enforcement.houjin_bangou', 1);
    for (const law of e.laws) w.addRelation(e.id, law, 'cites_law', 'enforcement.related_laws', 0.9);
    for (const p of e.programs) w.addRelation(e.id, p, 'concerns_program', 'enforcement.related_programs_auto', 0.5);
    if (e.authority) w.addRelation(e.id, e.authority, 'issued_by', 'enforcement.authority', 0.9);
  }
  // case_study -> program: names of 8+ characters held by exactly one program,
  // found verbatim in the case title.
  const distinctive = [...programNames].filter(([n, ids]) => ids.length === 1 && [...n].length >= 8);
  for (const c of caseLinks) {
    if (c.hb) w.addRelation(c.id, corporateId(c.hb), 'features', 'case_studies.houjin_bangou', 1);
    const title = normalizeText(c.title);
    for (const [n, ids] of distinctive) if (title.includes(n)) w.addRelation(c.id, ids[0], 'used_program', 'case_studies.title', 0.5);
  }
  for (const [tax, bases] of taxLegalBasis) {
    for (const basis of bases) {
      const title = basis.normalize('NFKC').replace(/[(（][^)）]*[)）]/g, '').replace(/(附則)?第.*$/, '').trim();
      const law = title ? uniqueLawByTitle(title) : null;
      if (law) w.addRelation(tax, law, 'based_on_law', 'tax_rulesets.legal_basis', 0.9);
    }
  }

  await buildLawArticles(ctx);
  await buildLoans(ctx);
  await buildEnums(ctx, w);
  const muni = ctx.db.prepare('INSERT OR IGNORE INTO am_municipalities (municipality_code, name, prefecture) VALUES (?, ?, ?)');
  for await (const r of records(ctx, 'municipalities')) {
    if (str(r.municipality_code) && str(r.name) && str(r.prefecture)) muni.run(r.municipality_code as string, r.name as string, r.prefecture as string);
  }

  const total = (ctx.db.prepare('SELECT count(*) AS n FROM am_entities').get() as { n: number }).n;
  const byKind = ctx.db.prepare('SELECT record_kind, count(*) AS n FROM am_entities GROUP BY record_kind').all() as { record_kind: string; n: number }[];
  const counts = Object.fromEntries(RECORD_KINDS.map((k) => [k, byKind.find((r) => r.record_kind === k)?.n ?? 0]));
  ctx.db.prepare("INSERT OR REPLACE INTO catalog_meta (key, value) VALUES ('am_entity_counts', ?)").run(JSON.stringify(counts));
  ctx.db.prepare("INSERT OR REPLACE INTO catalog_meta (key, value) VALUES ('am_relation_count', ?)").run(String(w.relations));
  return total;
}

async function buildLawArticles(ctx: LoadContext): Promise<void> {
  const lawKey = ctx.db.prepare("SELECT entity_id FROM am_entity_keys WHERE key = ? AND key_kind = 'slug' AND entity_id LIKE 'LAW%'");
  const insert = ctx.db.prepare(`INSERT OR IGNORE INTO am_law_articles
    (law_key, law_slug, article_key, article_label, article_number_sort, is_supplementary, seq, caption, text)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for await (const r of records(ctx, 'law_articles')) {
    const slug = str(r.law_slug);
    const key = str(r.article_key);
    const text = str(r.text);
    if (!slug || !key || !text || typeof r.seq !== 'number') continue;
    const law = (lawKey.get(normalizeText(slug)) as { entity_id: string } | undefined)?.entity_id ?? str(r.law_id) ?? `LAWSLUG-${slug}`;
    const parsed = articleFromKey(key);
    insert.run(law, slug, key, str(r.article_label), parsed ? articleSortKey(parsed) : null,
      r.is_supplementary === true || key.includes('附') ? 1 : 0, r.seq, str(r.caption), text);
  }
}

async function buildLoans(ctx: LoadContext): Promise<void> {
  const insert = ctx.db.prepare(`INSERT OR IGNORE INTO am_loans
    (loan_key, plan_type, name, name_norm, provider, program_kind, loan_type, prefecture, tier, amount_max_yen,
     collateral_required, personal_guarantor_required, third_party_guarantor_required, plan_kind, tax_deduction_type,
     source_url, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const axis = (v: unknown): string => (v === 'required' || v === 'not_required' || v === 'negotiable' ? v : 'unknown');
  for await (const r of records(ctx, 'loans_mutual_aid')) {
    const key = str(r.unified_id) ?? (r.loan_id !== null && r.loan_id !== undefined ? `LOAN-${String(r.loan_id)}` : null);
    const name = str(r.name);
    const planType = str(r.plan_type);
    if (!key || !name || !planType) continue;
    const amountYen = num(r.amount_max_yen) ?? (num(r.amount_max_man_yen) !== null ? Math.round((r.amount_max_man_yen as number) * 10_000) : null);
    const mutual = planType === 'mutual_aid' ? mutualPlanKind(name) : null;
    insert.run(key, planType, name, normalizeText(name), str(r.provider), str(r.program_kind), str(r.loan_type),
      str(r.prefecture), str(r.tier), amountYen, axis(r.collateral_required), axis(r.personal_guarantor_required),
      axis(r.third_party_guarantor_required), mutual?.plan_kind ?? null, mutual?.tax_deduction_type ?? null,
      str(r.source_url), JSON.stringify(compactFacts(r)));
  }
}

async function buildEnums(ctx: LoadContext, w: Writer): Promise<void> {
  const insert = ctx.db.prepare('INSERT OR IGNORE INTO am_enums (enum, value, label_ja, count, source) VALUES (?, ?, ?, ?, ?)');
  for await (const r of records(ctx, 'enums')) {
    const name = str(r.enum);
    if (!name || r.value === null || r.value === undefined) continue;
    insert.run(name, String(r.value), str(r.label_ja), num(r.count), str(r.source));
  }
  // Enumerations of the graph itself, counted in this catalogue.
  const kinds = w.db.prepare('SELECT record_kind AS value, count(*) AS n FROM am_entities GROUP BY record_kind').all() as { value: string; n: number }[];
  for (const k of RECORD_KINDS) {
    insert.run('am.record_kind', k, null, kinds.find((x) => x.value === k)?.n ?? 0, 'am_entities');
  }
  const rels = w.db.prepare('SELECT relation AS value, count(*) AS n FROM am_relations GROUP BY relation').all() as { value: string; n: number }[];
  for (const r of rels) insert.run('am.relation', r.value, null, r.n, 'am_relations');
  const auths = w.db.prepare("SELECT name AS value, (SELECT count(*) FROM am_relations WHERE dst_id = entity_id) AS n FROM am_entities WHERE record_kind = 'authority'").all() as { value: string; n: number }[];
  for (const a of auths) insert.run('am.authority', a.value, null, a.n, 'am_entities');
}

export const entityGraphLoader: Loader = {
  name: 'am_entities',
  file: 'programs',
  required: false,
  ddl: DDL,
  validate: () => null,
  prepare: () => () => null,
  build,
};
