// Outbound traffic as `app.outbound`: the secrets (webhook signing secrets,
// subscriber addresses, link tokens), the mailer when SMTP_URL is set, the
// public base URL of links, and the outbound worker, started when the app is
// ready (every process starts it; the lease lets one run) and stopped, with
// its lease given up, when the app closes.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { OutboundSecrets } from '../outbound/secrets.ts';
import { smtpMailer, type Mailer } from '../outbound/mailer.ts';
import { OutboundWorker } from '../outbound/worker.ts';

export interface Outbound {
  secrets: OutboundSecrets;
  mailer: Mailer | null;
  /** PUBLIC_BASE_URL (default http://HOST:PORT): the origin of links in mail. */
  baseUrl: string;
  worker: OutboundWorker;
}

declare module 'fastify' {
  interface FastifyInstance {
    outbound: Outbound;
  }
}

export default fp(
  async function outbound(app: FastifyInstance) {
    const config = app.config;
    const secrets = await OutboundSecrets.load(config, app.state);
    const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : null;
    const baseUrl = config.publicBaseUrl;
    const worker = new OutboundWorker(app.state, { ...config, baseUrl }, secrets, mailer, app.log);
    app.decorate('outbound', { secrets, mailer, baseUrl, worker });
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => {
      await worker.stop();
      mailer?.close();
    });
  },
  { name: 'outbound', dependencies: ['state'] },
);
