// A local fake of the jGrants public API (v1) for the sync tests: the
// documented list and detail shapes, with paging and the misbehaviours a
// polite client must survive (a 429 with Retry-After, a 500, a slow detail).
// Tests never touch the network: JGRANTS_API_BASE points here.
//   GET /exp/v1/public/subsidies?keyword=&sort=&order=&acceptance=[&offset=]
//     → {metadata: {type, resultset: {count}}, result: [row…]}   (pageSize rows a page)
//   GET /exp/v1/public/subsidies/id/{id}
//     → {metadata, result: [detail]}  or 404 {message}
import { startJsonSource } from './json-source.ts';

export interface JgrantsFakeOptions {
  /** Detail records, as the API answers them (each has an `id`). */
  records: Record<string, unknown>[];
  /** Rows per list page (default: all in one page, as the real API). */
  pageSize?: number;
  /** The first list request answers 429 with this Retry-After (seconds). */
  rateLimitFirstList?: number;
  /** Ids whose first detail request answers 500. */
  failDetailOnce?: string[];
  /** Delay of every detail answer (a sync to kill halfway). */
  detailDelayMs?: number;
}

export interface JgrantsFake {
  base: string;
  /** Paths (with query) of every request, in order. */
  requests: string[];
  records: Record<string, unknown>[];
  close(): Promise<void>;
}

const LIST_FIELDS = [
  'id',
  'name',
  'title',
  'target_area_search',
  'subsidy_max_limit',
  'acceptance_start_datetime',
  'acceptance_end_datetime',
  'target_number_of_employees',
];

export async function startJgrantsFake(options: JgrantsFakeOptions): Promise<JgrantsFake> {
  let listRateLimited = false;
  const failed = new Set<string>();
  const fake = { records: options.records };
  const source = await startJsonSource((url, send) => {
    if (url.pathname === '/exp/v1/public/subsidies') {
      if (options.rateLimitFirstList !== undefined && !listRateLimited) {
        listRateLimited = true;
        return send(429, { message: 'Too Many Requests' }, { 'retry-after': String(options.rateLimitFirstList) });
      }
      const keyword = url.searchParams.get('keyword') ?? '';
      if (keyword.length < 2) return send(400, { message: 'keyword must be 2 characters or more' });
      const hits = fake.records.filter((r) => String(r.title ?? '').includes(keyword) || String(r.keywords ?? '').includes(keyword));
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const page = hits.slice(offset, offset + (options.pageSize ?? hits.length));
      return send(200, {
        metadata: { type: 'application/json', resultset: { count: hits.length } },
        result: page.map((r) => Object.fromEntries(LIST_FIELDS.filter((f) => f in r).map((f) => [f, r[f]]))),
      });
    }
    const detail = /^\/exp\/v1\/public\/subsidies\/id\/([^/]+)$/.exec(url.pathname);
    if (detail) {
      const id = decodeURIComponent(detail[1]);
      const answer = () => {
        if (options.failDetailOnce?.includes(id) && !failed.has(id)) {
          failed.add(id);
          return send(500, { message: 'Internal Server Error' });
        }
        const record = fake.records.find((r) => r.id === id);
        if (!record) return send(404, { message: 'Not Found' });
        const { keywords: _keywords, ...body } = record;
        return send(200, { metadata: { type: 'application/json', resultset: { count: 1 } }, result: [body] });
      };
      if (options.detailDelayMs) setTimeout(answer, options.detailDelayMs);
      else answer();
      return;
    }
    send(404, { message: 'Not Found' });
  });
  return {
    base: `${source.origin}/exp/v1/public`,
    requests: source.requests,
    get records() {
      return fake.records;
    },
    set records(next) {
      fake.records = next;
    },
    close: source.close,
  };
}

/** A detail record in the documented shape (fields overridable). */
export function jgrantsRecord(id: string, title: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `S-${id.slice(-7).padStart(7, '0')}`,
    title,
    subsidy_catch_phrase: `${title}のご案内`,
    detail: '<p>事業の概要</p>',
    use_purpose: '設備整備・IT導入をしたい / 販路拡大・海外展開をしたい',
    industry: '製造業 / 卸売業，小売業',
    target_area_search: '全国',
    target_area_detail: '',
    target_number_of_employees: '20名以下',
    subsidy_rate: '2/3',
    subsidy_max_limit: 2_000_000,
    acceptance_start_datetime: '2026-04-01T00:00:00.000Z',
    acceptance_end_datetime: '2026-06-30T08:00:00.000Z',
    project_end_deadline: null,
    request_reception_presence: '有',
    is_enable_multiple_request: false,
    front_subsidy_detail_page_url: `https://www.jgrants-portal.go.jp/subsidy/${id}`,
    application_guidelines: [],
    ...extra,
  };
}
