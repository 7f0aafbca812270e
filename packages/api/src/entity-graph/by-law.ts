// /v1/am/by_law: the programs, tax measures and enforcement records linked
// to a statute (based_on_law, cites_law edges); an article narrows tax
// measures by their legal basis.
import type { CatalogDatabase } from '../catalog/db.ts';
import { searchNormalize } from '../catalog/search-text.ts';
import { articleLabel, parseArticleNumber } from '../catalog/article-numbers.ts';
import { amError, entitySummary, envelope, type Envelope } from './envelope.ts';
import { resolveLaw } from './law-resolution.ts';
import { checkKinds, listParam } from './params.ts';
import { getEntity, searchEntities } from './queries/entities.ts';
import { sourcesPointingAt } from './queries/relations.ts';

const KIND_ORDER: Record<string, number> = { program: 0, certification: 1, tax_measure: 2, enforcement: 3 };

export function byLaw(
  db: CatalogDatabase,
  p: { law_name: string; article?: string; kinds?: string | string[]; limit: number; offset: number },
): Envelope & { law_aliases_tried: string[] } {
  const name = p.law_name.trim();
  if (name === '') return { ...envelope(p.limit, p.offset, { error: amError('empty_input', 'law_name is empty') }), law_aliases_tried: [] };
  const kinds = listParam(p.kinds);
  const kindError = checkKinds(kinds);
  if (kindError) return { ...envelope(p.limit, p.offset, { error: kindError }), law_aliases_tried: [] };
  const article = p.article ? parseArticleNumber(p.article) : null;
  if (p.article && !article) {
    return {
      ...envelope(p.limit, p.offset, { error: amError('invalid_input', 'article is not an article number', 'e.g. 第17条, 17条の2, 17') }),
      law_aliases_tried: [],
    };
  }
  const { laws, tried } = resolveLaw(db, name);
  if (laws.length === 0) {
    const near = searchEntities(db, { kinds: ['law'], termGroups: [[searchNormalize(name).slice(0, 100)]], order: 'name', limit: 5, offset: 0 }).rows;
    return {
      ...envelope(p.limit, p.offset, {
        error: amError(
          'no_matching_records',
          'no law matches this name',
          near.length > 0 ? 'laws whose title contains the name are listed in retry_with' : 'give the formal title, a known short name (略称) or a LAW- id',
          near.length > 0 ? near.map((n) => ({ law_name: n.name })) : undefined,
        ),
      }),
      law_aliases_tried: tried,
    };
  }
  const lawIds = laws.map((l) => l.entity_id);
  const edges = sourcesPointingAt(db, lawIds, ['based_on_law', 'cites_law']);
  const seen = new Set<string>();
  let rows: Record<string, unknown>[] = [];
  for (const edge of edges) {
    if (seen.has(edge.src_id)) continue;
    const e = getEntity(db, edge.src_id);
    if (!e || (kinds.length > 0 && !kinds.includes(e.record_kind))) continue;
    let articleMatch: string | null = null;
    if (article) {
      if (e.record_kind === 'tax_measure') {
        const basis = ((e.facts.legal_basis as string[] | undefined) ?? []).map((b) => b.normalize('NFKC'));
        const label = articleLabel({ ...article, supplementary: false }).replace(/^第/, '第');
        if (!basis.some((b) => b.includes(label))) continue;
        articleMatch = 'article';
      } else {
        articleMatch = 'law_level';
      }
    }
    seen.add(edge.src_id);
    rows.push({
      ...entitySummary(e),
      law_id: edge.dst_id,
      relation: edge.relation,
      relation_source: edge.source,
      confidence: edge.confidence,
      ...(article ? { article_match: articleMatch } : {}),
    });
  }
  const tierRank = (t: unknown): number => (typeof t === 'string' ? 'SABCX'.indexOf(t) : 5);
  rows = rows.sort(
    (a, b) =>
      (KIND_ORDER[a.record_kind as string] ?? 9) - (KIND_ORDER[b.record_kind as string] ?? 9) ||
      tierRank(a.tier) - tierRank(b.tier) ||
      (b.confidence as number) - (a.confidence as number) ||
      String(a.name).localeCompare(String(b.name)),
  );
  return {
    ...envelope(p.limit, p.offset, {
      total: rows.length,
      results: rows.slice(p.offset, p.offset + p.limit),
      meta: { laws: laws.map((l) => ({ law_id: l.entity_id, title: l.name, status: l.status, source_url: l.source_url })) },
      retrieval_note: article
        ? 'article-level links exist only for tax measures (legal_basis); other rows are linked to the law as a whole (article_match: law_level)'
        : 'links: program_law_refs (programs), tax_rulesets.legal_basis (tax measures), enforcement.related_laws (enforcement records)',
    }),
    law_aliases_tried: tried,
  };
}
