// A local fake of the e-Gov 法令API v2 for the sync tests (EGOV_API_BASE
// points here): the documented JSON shapes of
//   GET /api/2/laws?limit=&offset=          → {total_count, count, next_offset, laws: [{law_info, revision_info}]}
//   GET /api/2/law_revisions/{law_id}       → {law_info, revisions: [revision_info…]}
//   GET /api/2/law_data/{law_id}            → {law_info, revision_info, law_full_text} (the revision in force)
//   GET /api/2/law_data/{law_revision_id}   → the same for that revision (its own articles, when given)
// with a 429 (Retry-After) and a 500 on demand.
import { startJsonSource } from './json-source.ts';

export interface FakeLaw {
  law_id: string;
  law_num: string;
  /** Newest first, as e-Gov lists them; the one with current_revision_status CurrentEnforced is served by law_data. */
  revisions: Record<string, unknown>[];
  /** Article elements: [title, caption, text] each. */
  articles: [string, string, string][];
  /** The articles of other revisions, by law_revision_id (default: `articles`). */
  articlesByRevision?: Record<string, [string, string, string][]>;
  /** Replace the law_data answer (a drifted shape). */
  lawDataOverride?: unknown;
}

export interface EgovFake {
  base: string;
  requests: string[];
  laws: FakeLaw[];
  close(): Promise<void>;
}

export function revision(
  lawId: string,
  id: string,
  title: string,
  enforced: string,
  status: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    law_revision_id: `${lawId}_${id}`,
    law_type: 'Act',
    law_title: title,
    law_title_kana: '',
    abbrev: '',
    category: '',
    updated: `${enforced}T00:00:00+09:00`,
    amendment_promulgate_date: enforced,
    amendment_enforcement_date: enforced,
    amendment_enforcement_comment: null,
    amendment_scheduled_enforcement_date: null,
    amendment_law_id: null,
    amendment_law_title: null,
    amendment_law_num: null,
    amendment_type: '3',
    repeal_status: 'None',
    repeal_date: null,
    remain_in_force: false,
    mission: 'New',
    current_revision_status: status,
    ...extra,
  };
}

function fullText(law: FakeLaw, title: string, articles = law.articles): unknown {
  const article = ([t, caption, text]: [string, string, string], i: number) => ({
    tag: 'Article',
    attr: { Num: String(i + 1) },
    children: [
      { tag: 'ArticleCaption', attr: {}, children: [caption] },
      { tag: 'ArticleTitle', attr: {}, children: [t] },
      {
        tag: 'Paragraph',
        attr: { Num: '1' },
        children: [
          { tag: 'ParagraphNum', attr: {}, children: [] },
          { tag: 'ParagraphSentence', attr: {}, children: [{ tag: 'Sentence', attr: { Num: '1' }, children: [text] }] },
        ],
      },
    ],
  });
  return {
    tag: 'Law',
    attr: { Era: 'Showa', Lang: 'ja', LawType: 'Act', Num: '179', Year: '30' },
    children: [
      { tag: 'LawNum', attr: {}, children: [law.law_num] },
      {
        tag: 'LawBody',
        attr: {},
        children: [
          { tag: 'LawTitle', attr: {}, children: [title] },
          { tag: 'MainProvision', attr: {}, children: articles.map(article) },
        ],
      },
    ],
  };
}

export async function startEgovFake(laws: FakeLaw[], options: { rateLimitFirst?: number; failOnce?: string[] } = {}): Promise<EgovFake> {
  let limited = false;
  const failed = new Set<string>();
  const state = { laws };
  const source = await startJsonSource((url, send) => {
    if (options.rateLimitFirst !== undefined && !limited) {
      limited = true;
      return send(429, { code: '429', message: 'Too Many Requests' }, { 'retry-after': String(options.rateLimitFirst) });
    }
    if (options.failOnce?.includes(url.pathname) && !failed.has(url.pathname)) {
      failed.add(url.pathname);
      return send(500, { code: '500', message: 'Internal Server Error' });
    }
    const lawInfo = (law: FakeLaw) => ({
      law_type: 'Act',
      law_id: law.law_id,
      law_num: law.law_num,
      law_num_era: 'Showa',
      law_num_year: 30,
      law_num_type: 'Act',
      law_num_num: '179',
      promulgation_date: '1955-08-27',
    });
    const current = (law: FakeLaw) => law.revisions.find((r) => r.current_revision_status === 'CurrentEnforced') ?? law.revisions[0];
    if (url.pathname === '/api/2/laws') {
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const page = state.laws.slice(offset, offset + limit);
      const next = offset + page.length < state.laws.length ? offset + page.length : null;
      return send(200, {
        total_count: state.laws.length,
        count: page.length,
        next_offset: next,
        laws: page.map((l) => ({ law_info: lawInfo(l), revision_info: current(l), current_revision_info: current(l) })),
      });
    }
    const m = /^\/api\/2\/(law_revisions|law_data)\/([^/]+)$/.exec(url.pathname);
    const id = m ? decodeURIComponent(m[2]) : '';
    const law = m && state.laws.find((l) => l.law_id === id || (m[1] === 'law_data' && l.revisions.some((r) => r.law_revision_id === id)));
    if (!m || !law) return send(404, { code: '404', message: 'Not Found' });
    if (m[1] === 'law_revisions') return send(200, { law_info: lawInfo(law), revisions: law.revisions });
    if (law.lawDataOverride !== undefined) return send(200, law.lawDataOverride);
    const rev = law.law_id === id ? current(law) : law.revisions.find((r) => r.law_revision_id === id)!;
    const articles = law.law_id === id ? law.articles : (law.articlesByRevision?.[id] ?? law.articles);
    return send(200, { attached_files_info: null, law_info: lawInfo(law), revision_info: rev, law_full_text: fullText(law, String(rev.law_title), articles) });
  });
  return {
    base: `${source.origin}/api/2`,
    requests: source.requests,
    get laws() {
      return state.laws;
    },
    set laws(next) {
      state.laws = next;
    },
    close: source.close,
  };
}
