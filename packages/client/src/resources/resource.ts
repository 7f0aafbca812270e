import type { JpSupportClient } from '../client.ts';

/** A group of endpoints; methods are one line each over the client's request core. */
export class APIResource {
  protected readonly _client: JpSupportClient;
  constructor(client: JpSupportClient) {
    this._client = client;
  }
}
