// GET /device: the verification_uri of the device flow (RFC 8628). Approval
// is an operator action (`npm run cli -- device approve <user_code>`), so the
// page tells the person at the browser where their code stands and what to
// do next; it never approves anything itself. Not part of the JSON API
// (hidden from the OpenAPI document, not metered).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { normalizeUserCode } from '../access/device.ts';
import { escapeHtml } from '../portal/html.ts';

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem">` +
    `<h1>${escapeHtml(title)}</h1>${body}</body></html>`
  );
}

const devicePageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/device',
    {
      config: { access: 'public' },
      schema: { hide: true, querystring: Type.Object({ user_code: Type.Optional(Type.String({ maxLength: 32 })) }) },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const raw = request.query.user_code;
      if (!raw) {
        return page('Device sign-in', '<p>Open the link your device showed you, or add <code>?user_code=XXXX-XXXX</code> to this address.</p>');
      }
      const code = normalizeUserCode(raw);
      const record = code ? await app.state.deviceCodes.findByUserCode(code) : null;
      const shown = escapeHtml(code ?? raw);
      if (!record)
        return reply.code(404).send(page('Unknown code', `<p>No sign-in request has the code <strong>${shown}</strong>. Check it and try again.</p>`));
      const expired = Date.parse(record.expiresAt) <= Date.now();
      const status = record.status === 'pending' && expired ? 'expired' : record.status;
      const text: Record<string, string> = {
        pending:
          `<p>Your sign-in request <strong>${shown}</strong> is waiting for approval. Give this code to the service operator; ` +
          'your device will receive its key as soon as it is approved.</p>',
        approved: `<p>The request <strong>${shown}</strong> is approved. Your device will receive its key on its next poll.</p>`,
        consumed: `<p>The request <strong>${shown}</strong> is complete: your device has its key.</p>`,
        denied: `<p>The request <strong>${shown}</strong> was denied.</p>`,
        expired: `<p>The request <strong>${shown}</strong> has expired. Start the sign-in again on your device.</p>`,
      };
      return page('Device sign-in', text[status] ?? `<p>Status: ${escapeHtml(status)}</p>`);
    },
  );
};

export default devicePageRoutes;
