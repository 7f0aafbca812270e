// Program catalogue tools: search, detail, batch, exclusion rules, meta, enums.
import { z } from 'zod';
import { seg } from '../api.ts';
import {
  asSearch, defineTool, f, o, prefectureArg, query, RECORD_EMPTY, SEARCH_EMPTY, searchOutput, ToolInputError,
} from '../lib/tool.ts';

const TIERS = ['S', 'A', 'B', 'C', 'X'] as const;
const FIELDS = z.enum(['minimal', 'default', 'full']);
const AUTHORITY = z.enum(['national', 'prefecture', 'municipality', 'financial']);

export const searchPrograms = defineTool({
  name: 'search_programs',
  title: 'Search support programs',
  description: 'Search the catalogue of Japanese public support programs (subsidies, grants, loans, tax measures, certifications) by keywords and filters; ordered by tier (S best) or text relevance, paginated.',
  input: {
    q: f.q('program names and aliases (3+ characters use the full-text index)'),
    tier: z.array(z.enum(TIERS)).max(5).optional().describe('Quality tiers to include (OR-ed); X = quarantined, only with include_excluded'),
    prefecture: f.prefecture(),
    authority_level: AUTHORITY.optional().describe('Level of the issuing authority'),
    funding_purpose: z.array(z.string().max(100)).max(20).optional().describe('Funding purposes (OR-ed), values as listed by enum_values(field=funding_purpose)'),
    target_type: z.array(z.string().max(100)).max(20).optional().describe('Eligible applicant types (OR-ed), values as listed by enum_values(field=target_type)'),
    amount_min_man_yen: z.number().min(0).optional().describe('Lowest acceptable maximum grant amount, in 10,000 yen'),
    amount_max_man_yen: z.number().min(0).optional().describe('Highest acceptable maximum grant amount, in 10,000 yen'),
    include_excluded: z.boolean().default(false).describe('Also return tier X (quarantined) programs'),
    limit: f.limit(100, 20, 'programs'),
    offset: f.offset(),
    fields: FIELDS.default('minimal').describe('Row shape: minimal (7 keys), default (all program fields) or full (plus enrichment and lineage)'),
    as_of: f.asOf(),
  },
  output: searchOutput(),
  empty: SEARCH_EMPTY,
  async run(call, a) {
    const body = await call.api.request('GET', '/v1/programs/search', {
      query: query({
        q: a.q, tier: a.tier, prefecture: prefectureArg(call, a.prefecture), authority_level: a.authority_level,
        funding_purpose: a.funding_purpose, target_type: a.target_type, amount_min: a.amount_min_man_yen,
        amount_max: a.amount_max_man_yen, include_excluded: a.include_excluded, limit: a.limit, offset: a.offset, fields: a.fields,
      }),
    });
    const out = asSearch(body);
    if ((out.results as unknown[]).length === 0) {
      out.explanation = 'No program matched; loosen the filters or try other keywords.';
      out.suggested_actions = ['enum_values(field=prefecture)', 'search_programs without tier/amount filters'];
    }
    return out;
  },
});

export const getProgram = defineTool({
  name: 'get_program',
  title: 'Get one program',
  description: 'Fetch one support program by its unified id (UNI-…), at the chosen level of detail.',
  input: {
    unified_id: z.string().min(1).max(100).describe('Program id, e.g. UNI-0123456789'),
    fields: FIELDS.default('default').describe('minimal (7 keys), default (all fields) or full (plus enrichment and lineage)'),
  },
  output: { record: o.record() },
  empty: RECORD_EMPTY,
  async run(call, a) {
    const record = await call.api.request<Record<string, unknown>>('GET', `/v1/programs/${seg(a.unified_id)}`, { query: { fields: a.fields } });
    return { record };
  },
});

export const batchGetPrograms = defineTool({
  name: 'batch_get_programs',
  title: 'Get up to 50 programs',
  description: 'Fetch up to 50 programs (full detail) in one call; duplicate ids are collapsed keeping the first occurrence, unknown ids are listed in not_found.',
  input: {
    unified_ids: z.array(z.string().min(1).max(100)).min(1).max(50).describe('1 to 50 program ids'),
  },
  output: { results: o.rows(), not_found: z.array(z.string()).describe('Ids that are not in the catalogue') },
  empty: { results: [], not_found: [] },
  async run(call, a) {
    const ids = [...new Set(a.unified_ids)];
    if (ids.length > 50) throw new ToolInputError('limit_exceeded', `unified_ids accepts at most 50 distinct ids (got ${ids.length})`, 'Split the call into chunks of 50.');
    const body = await call.api.request<{ results: unknown[]; not_found: string[]; attribution?: unknown }>('POST', '/v1/programs/batch', { body: { unified_ids: ids } });
    return { results: body.results, not_found: body.not_found, attribution: body.attribution };
  },
});

const RULE_KINDS = [
  'exclude', 'prerequisite', 'absolute', 'combine_ok', 'conditional_reduction', 'same_asset_exclusive',
  'cross_tier_same_asset', 'area_allocation', 'cross_tier_loan_interest', 'entity_scope_restriction', 'mutex_certification',
] as const;

type Rule = { rule_id: string; kind: string; program_a: string | null; program_b: string | null; program_b_group: (string | null)[]; extra?: Record<string, unknown>; [k: string]: unknown };

/** Kinds a rule answers to: its normalised kind, the upstream kind kept in `extra`, and `exclude` for any mutex. */
function ruleKinds(rule: Rule): Set<string> {
  const kinds = new Set<string>([rule.kind]);
  const upstream = rule.extra?.upstream_kind ?? rule.extra?.kind ?? rule.extra?.original_kind;
  if (typeof upstream === 'string') kinds.add(upstream);
  if (rule.kind === 'mutex') kinds.add('exclude');
  return kinds;
}

export function filterRules(rules: Rule[], kinds: readonly string[] | undefined, programId: string | undefined): Rule[] {
  return rules.filter((r) => {
    if (kinds && kinds.length > 0) {
      const have = ruleKinds(r);
      if (!kinds.some((k) => have.has(k))) return false;
    }
    if (programId) {
      const members = [r.program_a, r.program_b, ...(r.program_b_group ?? [])];
      const candidates = Object.values(r.extra ?? {}).flatMap((v) => (Array.isArray(v) ? v : [v]));
      if (!members.includes(programId) && !candidates.includes(programId)) return false;
    }
    return true;
  });
}

export const listExclusionRules = defineTool({
  name: 'list_exclusion_rules',
  title: 'List exclusion rules',
  description: 'List the rules that make programs incompatible or require one before another, optionally narrowed to rule kinds or to the rules naming one program.',
  input: {
    kind: z.array(z.enum(RULE_KINDS)).max(11).optional().describe('Rule kinds to keep (OR-ed); exclude matches every mutual-exclusion rule'),
    program_id: z.string().max(200).optional().describe('Keep only rules naming this program (unified_id or slug)'),
    verbose: z.boolean().default(false).describe('Include source notes and extra fields'),
  },
  output: { results: o.rows(), total: o.total() },
  empty: { results: [], total: 0 },
  async run(call, a) {
    const rules = await call.api.request<Rule[]>('GET', '/v1/exclusions/rules');
    const kept = filterRules(rules, a.kind, a.program_id).map((r) => {
      if (a.verbose) return r;
      const { source_notes: _notes, extra: _extra, ...rest } = r;
      return rest;
    });
    return { results: kept, total: kept.length, ...(kept.length === 0 ? { explanation: 'No rule matches these filters.' } : {}) };
  },
});

export const checkExclusions = defineTool({
  name: 'check_exclusions',
  title: 'Check a program combination',
  description: 'Given program ids (unified ids or slugs), report the exclusion rules the combination triggers: mutual exclusions need two of their programs, prerequisites fire on one.',
  input: {
    program_ids: z.array(z.string().min(1).max(200)).min(1).max(50).describe('1 to 50 program ids or slugs; duplicates removed'),
  },
  output: { program_ids: z.array(z.string()).describe('The de-duplicated input'), hits: o.rows(), checked_rules: z.number().int().describe('Rules examined') },
  empty: { program_ids: [], hits: [], checked_rules: 0 },
  async run(call, a) {
    const body = await call.api.request<{ program_ids: string[]; hits: unknown[]; checked_rules: number; attribution?: unknown }>('POST', '/v1/exclusions/check', { body: { program_ids: a.program_ids } });
    return {
      program_ids: body.program_ids, hits: body.hits, checked_rules: body.checked_rules, attribution: body.attribution,
      result_count: body.hits.length,
      explanation: body.hits.length === 0 ? `No rule is triggered by this combination (${body.checked_rules} rules checked).` : `${body.hits.length} rule(s) triggered.`,
    };
  },
});

export const getMeta = defineTool({
  name: 'get_meta',
  title: 'Dataset statistics',
  description: 'Report dataset counts and freshness: programs per tier and prefecture, record counts, exclusion rules, last ingest time.',
  input: {},
  output: {
    total_programs: z.number().int().describe('Programs in the catalogue'),
    tier_counts: z.record(z.number()).describe('Programs per tier'),
    prefecture_counts: z.record(z.number()).describe('Programs per prefecture; _none = nationwide/unlabelled'),
    exclusion_rules_count: z.number().int().describe('Exclusion rules'),
    last_ingested_at: z.string().describe('Last data load (UTC)'),
  },
  empty: { total_programs: 0, tier_counts: {}, prefecture_counts: {}, exclusion_rules_count: 0, last_ingested_at: '' },
  async run(call) {
    return await call.api.request<Record<string, unknown>>('GET', '/meta');
  },
});

const ENUM_FIELDS = ['target_type', 'funding_purpose', 'program_kind', 'authority_level', 'prefecture', 'event_type', 'ministry', 'loan_type', 'provider', 'programs_used'] as const;

/** The entity-store enumeration behind each field; fields without one are answered otherwise or honestly not at all. */
const ENUM_SOURCES: Partial<Record<(typeof ENUM_FIELDS)[number], string>> = {
  target_type: 'target_type', funding_purpose: 'funding_purpose', program_kind: 'program_kind', prefecture: 'region',
  event_type: 'event_type', ministry: 'ministry',
};

export const enumValues = defineTool({
  name: 'enum_values',
  title: 'Values of a filter field',
  description: 'List the distinct values, with counts, that actually occur for a filterable field, so a caller can pick valid filter values.',
  input: {
    field: z.enum(ENUM_FIELDS).describe('The field whose values to list'),
    limit: f.limit(200, 50, 'values'),
  },
  output: { field: z.string().describe('The field'), values: z.array(z.object({ value: z.string(), count: z.number() })).describe('Values, most frequent first'), results: o.rows() },
  empty: { field: '', values: [], results: [] },
  async run(call, a) {
    const list = (freq: Record<string, number>, names?: string[]) => (names ?? Object.keys(freq))
      .map((value) => ({ value, count: freq[value] ?? 0 }))
      .sort((x, y) => y.count - x.count || x.value.localeCompare(y.value))
      .slice(0, a.limit);
    if (a.field === 'authority_level') {
      const levels = ['national', 'prefecture', 'municipality', 'financial'];
      const totals = await Promise.all(levels.map((level) =>
        call.api.request<{ total: number }>('GET', '/v1/programs/search', { query: { authority_level: level, limit: 1, fields: 'minimal' } })));
      const values = list(Object.fromEntries(levels.map((l, i) => [l, totals[i].total])));
      return { field: a.field, values, results: values };
    }
    const amName = ENUM_SOURCES[a.field];
    if (!amName) {
      const message = `The catalogue does not record ${a.field} as a separate field.`;
      return { field: a.field, values: [], results: [], explanation: message, error: { code: 'no_matching_records', message, hint: 'Use enum_values_am for the entity-store enumerations.' } };
    }
    const body = await call.api.request<{ values?: string[]; frequency_map?: Record<string, number>; error?: unknown }>('GET', `/v1/am/enums/${seg(amName)}`);
    if (body.error) return { field: a.field, values: [], results: [], error: body.error };
    const values = list(body.frequency_map ?? {}, body.values);
    return { field: a.field, values, results: values };
  },
});
