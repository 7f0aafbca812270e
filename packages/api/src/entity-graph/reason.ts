// /v1/am/reason: intent + slots + catalogue lookup -> an answer skeleton in
// which every claim line ends with [n], n indexing `source_urls` (the
// source_url of a record the API serves). Nothing is claimed without a record.
import type { CatalogDatabase } from '../catalog/db.ts';
import type { ProgramSearch } from '../catalog/search/engine.ts';
import { getProgramRowsByPid, type ProgramRow } from '../catalog/programs/records.ts';
import { ProgramQueryError, readProgramQuery } from '../catalog/programs/query.ts';
import { understandQuery } from '../catalog/search/understand.ts';
import { jstDate } from '../lib/time.ts';
import { byLaw } from './by-law.ts';
import { enforcementCheck } from './enforcement.ts';
import { amError, type AmError } from './envelope.ts';
import { classifyIntent, type IntentId } from './intent.ts';
import { lawArticleLookup } from './law-article.ts';
import { loans } from './loans.ts';
import { openPrograms } from './programs-at-date.ts';
import { searchEntities, type Entity } from './queries/entities.ts';
import { PREFECTURES, contentTerms, extractAmount, extractHoujinBangou, extractIndustry, extractPrefecture, extractTarget } from './slots.ts';
import { taxRule } from './tax-rule.ts';

export const PERSONAS = ['sme_owner', 'tax_advisor', 'agri_corp', 'consultant', 'ma_advisor', 'municipality', 'generic'] as const;

interface Claim {
  text: string;
  url: string;
}

/**
 * `programs` is the catalogue's programme search: when given, the programmes
 * an answer cites are the ones GET /v1/programs/search ranks first for the
 * question (its understanding: words, synonyms, the prefecture and purpose
 * named), with the question's prefecture (or nationwide), amount, industry
 * and target applied as filters.
 */
export function reason(db: CatalogDatabase, p: { query: string; persona?: string }, today = jstDate(), programs?: ProgramSearch) {
  const query = p.query.slice(0, 2000);
  const base = {
    answer_skeleton: '',
    intent: null as string | null,
    intent_name_ja: null as string | null,
    persona_hint: null as string | null,
    confidence: null as number | null,
    db_bind_ok: null as boolean | null,
    db_bind_notes: null as string[] | null,
    filters_extracted: { prefecture: null, amount: null, industry: null, target: null } as {
      prefecture: unknown;
      amount: unknown;
      industry: unknown;
      target: unknown;
    },
    missing_data: [] as string[],
    precompute_gaps: [] as string[],
    retry_with: null as Record<string, unknown> | null,
    source_urls: [] as string[],
    error: null as AmError | null,
  };
  if (query.trim() === '') return { ...base, error: amError('empty_input', 'query is empty') };
  if (p.persona && !(PERSONAS as readonly string[]).includes(p.persona)) {
    return { ...base, error: amError('invalid_enum', 'unknown persona', `persona is one of ${PERSONAS.join(', ')}`) };
  }
  const intent = classifyIntent(query);
  const pref = extractPrefecture(query);
  const amount = extractAmount(query);
  const industry = extractIndustry(query);
  const target = extractTarget(query);
  const hb = extractHoujinBangou(query);
  const filters = {
    prefecture: pref?.prefecture ?? null,
    amount: amount ? { man_yen: amount.man_yen, text: amount.matched } : null,
    industry: industry ? { jsic_major: industry.jsic_major, label: industry.label, keyword: industry.matched } : null,
    target: target ? { target: target.target, target_types: target.target_types, keyword: target.matched } : null,
  };
  const understood = understandQuery(query);
  const purposes = understood?.purposes ?? [];
  (filters as Record<string, unknown>).purpose = purposes.length > 0 ? purposes : null;
  const slotWords = [pref?.matched, amount?.matched, industry?.matched, target?.matched, hb ?? undefined].filter((x): x is string => !!x);
  const cueWords = intent.all_scores.flatMap((s) => s.matched_cues);
  const terms = contentTerms(query, [...slotWords, ...cueWords]);

  const claims: Claim[] = [];
  const notes: string[] = [];
  const missing: string[] = [];
  const gaps: string[] = [];
  const id = intent.intent_id as IntentId;
  /** The programmes search ranks first for the question, the slots applied as filters (nationwide rows kept). */
  const rankedPrograms = (search: ProgramSearch): ProgramRow[] => {
    // Amounts and corporate numbers are slots, not words to find in a name.
    let text = query;
    for (const slot of [amount?.matched, hb]) if (slot) text = text.split(slot).join(' ');
    let programQuery;
    try {
      programQuery = readProgramQuery({ q: text }, jstDate());
    } catch (err) {
      // A question of more words than a search takes finds nothing here (the answer says what is missing).
      if (err instanceof ProgramQueryError) return [];
      throw err;
    }
    const page = search.search({ query: programQuery, limit: 100, offset: 0 });
    const rows = getProgramRowsByPid(
      db,
      page.hits.map((h) => h.pid),
    );
    const list = (json: string): string[] => JSON.parse(json) as string[];
    return page.hits
      .map((h) => rows.get(h.pid)!)
      .filter(
        (r) =>
          (filters.prefecture === null || r.prefecture === null || r.prefecture === filters.prefecture) &&
          (!amount || r.amount_max_man_yen === null || r.amount_max_man_yen >= amount.man_yen) &&
          (!industry || list(r.jsic_majors).length === 0 || list(r.jsic_majors).includes(industry.jsic_major)) &&
          (!target || list(r.target_types).length === 0 || list(r.target_types).some((t) => target.target_types.includes(t))) &&
          (r.source_url ?? r.official_url) !== null,
      )
      .slice(0, 5);
  };
  const rankedLine = (r: ProgramRow): Claim => ({
    text: `${r.primary_name}（${[r.prefecture ?? '全国/不明', `tier ${r.tier}`, r.amount_max_man_yen !== null ? `上限${r.amount_max_man_yen}万円` : null].filter(Boolean).join('・')}）`,
    url: (r.source_url ?? r.official_url)!,
  });

  const programLine = (e: Entity): Claim | null =>
    e.source_url
      ? {
          text: `${e.name}（${[e.prefecture ?? '全国/不明', e.tier ? `tier ${e.tier}` : null, typeof e.facts.amount_max_man_yen === 'number' ? `上限${e.facts.amount_max_man_yen}万円` : null].filter(Boolean).join('・')}）`,
          url: e.source_url,
        }
      : null;

  const searchPrograms = (kinds: string[], extraGroups: string[][] = []): Entity[] => {
    const groups = [...extraGroups];
    if (terms.length > 0) groups.push(terms);
    let { rows } = searchEntities(db, {
      kinds,
      termGroups: groups,
      prefecture: filters.prefecture,
      includeNationwide: true,
      excludeTierX: true,
      order: 'tier',
      limit: 50,
      offset: 0,
    });
    if (rows.length === 0 && terms.length > 0) {
      notes.push(`no program matched the words ${terms.join(' / ')}; widened to the slots only`);
      rows = searchEntities(db, {
        kinds,
        termGroups: extraGroups,
        prefecture: filters.prefecture,
        includeNationwide: true,
        excludeTierX: true,
        order: 'tier',
        limit: 50,
        offset: 0,
      }).rows;
    }
    // A nationwide-looking row named after another prefecture is that prefecture's program.
    const otherPrefecture = (e: Entity): boolean =>
      filters.prefecture !== null &&
      e.prefecture === null &&
      PREFECTURES.some(([n]) => n !== filters.prefecture && e.name.includes(n.replace(/[都府県]$/, '')));
    return rows
      .filter((e) => !otherPrefecture(e))
      .filter((e) => !amount || typeof e.facts.amount_max_man_yen !== 'number' || (e.facts.amount_max_man_yen as number) >= amount.man_yen)
      .filter((e) => !industry || !Array.isArray(e.facts.jsic_majors) || (e.facts.jsic_majors as string[]).includes(industry.jsic_major))
      .filter((e) => !target || !Array.isArray(e.facts.target_types) || (e.facts.target_types as string[]).some((t) => target.target_types.includes(t)))
      .slice(0, 5);
  };

  switch (id) {
    case 'tax_measure': {
      const q = terms.join(' ') || cueWords.find((c) => c.length >= 3) || 'インボイス';
      const res = taxRule(db, { measure_name_or_id: q, limit: 5 }, today);
      for (const r of res.results)
        if (r.source_url)
          claims.push({
            text: `${String(r.ruleset_name)}: ${String(r.rate_or_amount ?? '')}（${String(r.effective_from ?? '?')}〜${String(r.effective_until ?? '')}）`,
            url: String(r.source_url),
          });
      if (res.total === 0) missing.push('measure name (e.g. インボイス, 特別償却)');
      gaps.push('tax rulesets: 50 in the dataset (invoice, e-bookkeeping, SME incentives)');
      break;
    }
    case 'loan_finance': {
      const res = loans(db, { name_query: terms.slice(0, 2).join(' ') || undefined, prefecture: filters.prefecture ?? undefined, limit: 5, offset: 0 });
      const rows = res.total > 0 ? res.results : loans(db, { limit: 5, offset: 0, prefecture: filters.prefecture ?? undefined }).results;
      for (const r of rows) if (r.source_url) claims.push({ text: `${String(r.name)}（${String(r.provider ?? '提供者不明')}）`, url: String(r.source_url) });
      gaps.push('loan risk axes (collateral / guarantors) are published for 2 products only');
      break;
    }
    case 'law_lookup': {
      const lawName = (query.normalize('NFKC').match(/[\p{Script=Han}\p{Script=Katakana}ー・]+?法(律|令)?/u) ?? [])[0];
      const article = (query.normalize('NFKC').match(/第[0-9〇一二三四五六七八九十百千]+条(の[0-9〇一二三四五六七八九十]+)?/u) ?? [])[0];
      if (!lawName) missing.push('law name');
      else if (article) {
        const a = lawArticleLookup(db, { law_name_or_canonical_id: lawName, article_number: article });
        if (a.found && a.source_url)
          claims.push({
            text: `${String(a.law?.title)} ${String(a.article_number)}${a.title ? `（${a.title}）` : ''}: ${String(a.text_summary)}`,
            url: a.source_url,
          });
        else notes.push(a.error?.message ?? 'article not found');
      } else {
        const r = byLaw(db, { law_name: lawName, limit: 5, offset: 0 });
        for (const l of (r.meta?.laws as { title: string; source_url: string | null }[] | undefined) ?? [])
          if (l.source_url) claims.push({ text: `法令: ${l.title}`, url: l.source_url });
        for (const row of r.results)
          if (row.source_url) claims.push({ text: `関連: ${String(row.name)}（${String(row.record_kind)}）`, url: String(row.source_url) });
        if (r.error) notes.push(r.error.message);
      }
      break;
    }
    case 'enforcement_check': {
      if (!hb) missing.push('houjin_bangou (13-digit corporate number) or company name');
      else {
        const r = enforcementCheck(db, { houjin_bangou: hb }, today);
        for (const row of r.recent_history)
          if (row.source_url)
            claims.push({ text: `${String(row.title)}（${String(row.action_date ?? '')}${row.active ? '、排除期間中' : ''}）`, url: String(row.source_url) });
        if (!r.found) notes.push(`no enforcement record for ${hb} in the dataset (absence is not clearance)`);
      }
      gaps.push('enforcement records: 1,485 published actions (2021–2026); not a complete register');
      break;
    }
    case 'deadline_schedule': {
      const r = openPrograms(db, { pivot_date: today, prefecture: filters.prefecture ?? undefined, limit: 5, offset: 0 }, today);
      for (const row of r.results)
        if (row.source_url)
          claims.push({ text: `${String(row.name)}: 締切 ${String(row.valid_until)}（残り${String(row.days_remaining)}日）`, url: String(row.source_url) });
      gaps.push('application windows are known for 56 of 12,072 program records');
      break;
    }
    case 'case_study': {
      const groups: string[][] = [];
      const { rows } = searchEntities(db, {
        kinds: ['case_study'],
        termGroups: terms.length > 0 ? [terms] : groups,
        prefecture: filters.prefecture,
        limit: 20,
        offset: 0,
        order: 'name',
      });
      const list = rows.filter((e) => !industry || String(e.facts.jsic_code ?? '').startsWith(industry.jsic_major)).slice(0, 5);
      for (const e of list)
        if (e.source_url) claims.push({ text: `${e.name}（${String(e.facts.company_name ?? '')}、${e.prefecture ?? ''}）`, url: e.source_url });
      gaps.push('case pages do not say which program each case used');
      break;
    }
    case 'certification': {
      for (const e of searchPrograms(['certification'])) {
        const c = programLine(e);
        if (c) claims.push(c);
      }
      break;
    }
    case 'exclusion_combo': {
      const progs = searchPrograms(['program', 'certification']);
      for (const e of progs) {
        const c = programLine(e);
        if (c) claims.push(c);
      }
      notes.push('check the combination with POST /v1/exclusions/check (22 agricultural rules are published)');
      gaps.push('only 22 of the upstream 181 exclusion rules are published');
      break;
    }
    default: {
      if (programs) {
        for (const r of rankedPrograms(programs)) claims.push(rankedLine(r));
        if (claims.length === 0) notes.push('no program matched the question and its slots');
      } else {
        for (const e of searchPrograms(['program'])) {
          const c = programLine(e);
          if (c) claims.push(c);
        }
      }
      if (id === 'check_eligibility') {
        for (const [slot, v] of Object.entries(filters)) if (v === null) missing.push(slot);
        notes.push('run POST /v1/am/validate with applicant_data and the program id for a rule check');
      } else if (!filters.prefecture) missing.push('prefecture');
    }
  }

  const urls: string[] = [];
  const lines = [`【${intent.intent_name_ja}】${query.slice(0, 120)}`];
  for (const c of claims) {
    let n = urls.indexOf(c.url) + 1;
    if (n === 0) {
      urls.push(c.url);
      n = urls.length;
    }
    lines.push(`- ${c.text} [${n}]`);
  }
  if (claims.length === 0) lines.push('- 該当するレコードは見つかりませんでした（根拠のない記述はしません）');
  const persona =
    p.persona ??
    (id === 'tax_measure'
      ? 'tax_advisor'
      : industry?.jsic_major === 'A' || target?.target === 'farmer'
        ? 'agri_corp'
        : id === 'enforcement_check'
          ? 'ma_advisor'
          : 'sme_owner');
  return {
    ...base,
    answer_skeleton: lines.join('\n'),
    intent: intent.intent_id,
    intent_name_ja: intent.intent_name_ja,
    persona_hint: persona,
    confidence: intent.confidence,
    db_bind_ok: claims.length > 0,
    db_bind_notes: notes.length > 0 ? notes : null,
    filters_extracted: filters,
    missing_data: [...new Set(missing)],
    precompute_gaps: gaps,
    retry_with: claims.length === 0 ? { query: [filters.prefecture, ...terms.slice(0, 2), intent.intent_name_ja].filter(Boolean).join(' ') } : null,
    source_urls: urls,
  };
}
