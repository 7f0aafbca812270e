import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions, QueryParams, RequestCore } from '../request-options.ts';
import type { Operations } from '../generated/openapi.ts';

type QueryOf<Op extends keyof Operations> = Operations[Op] extends { query: infer Q } ? Q : never;
type ResponseOf<Op extends keyof Operations> = Operations[Op]['response'];

/**
 * A record set: `GET /v1/<name>/search` and `GET /v1/<name>/{id}`. The server
 * produces both from one spec per set, so one class serves every set; the
 * type parameters are the two operation ids, whose query and response types
 * come from the generated OpenAPI types.
 */
export class RecordSet<Search extends keyof Operations, Get extends keyof Operations> extends APIResource {
  /** The set's path segment, e.g. `loans`. */
  readonly name: string;

  constructor(client: RequestCore, name: string) {
    super(client);
    this.name = name;
  }

  /** GET /v1/<name>/search: free text `q`, the set's filters, `limit`, `offset`. */
  async search(query: QueryOf<Search> = {} as QueryOf<Search>, options?: CallOptions): Promise<ResponseOf<Search>> {
    return this._client.get(path`/v1/${this.name}/search`, { query: query as QueryParams, ...options });
  }

  /**
   * GET /v1/<name>/search?format=csv|jsonl: every matching row (from
   * `offset`, up to `max_rows` and the server's cap) as CSV or JSON Lines
   * text. Each started 100 rows count as one request. For large exports
   * stream the URL with fetch instead: this reads the whole text.
   */
  async export(
    format: 'csv' | 'jsonl',
    query: Omit<QueryOf<Search>, 'format'> = {} as Omit<QueryOf<Search>, 'format'>,
    options?: CallOptions,
  ): Promise<string> {
    return this._client.get(path`/v1/${this.name}/search`, { query: { ...(query as QueryParams), format }, ...options });
  }

  /** GET /v1/<name>/{id}. */
  async get(id: string | number, options?: CallOptions): Promise<ResponseOf<Get>> {
    return this._client.get(path`/v1/${this.name}/${id}`, options);
  }
}
