import type { RequestCore } from '../request-options.ts';

/** A group of endpoints; methods are one line each over the client's request core. */
export class APIResource {
  protected readonly _client: RequestCore;
  constructor(client: RequestCore) {
    this._client = client;
  }
}
