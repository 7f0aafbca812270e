// E-mail subscriptions: POST /v1/subscribers (an address and what to
// receive: one of the caller's saved searches, or a search of its own), the
// confirm link and the unsubscribe link. Links carry an HMAC token
// (outbound/secrets.ts): no login. Sign-up answers the same whether or not
// the address is known, and mails a confirmation in our words only; digests
// go only to confirmed addresses. Unsubscribing deletes the address, its
// queued mail and a search the subscription created.
// Opening a link (GET, or HEAD: mail scanners do both) only shows a page;
// the page's button POSTs to the same URL, which acts (issue 24, L3). Mail
// clients' one-click unsubscribe (RFC 8058) is that same POST.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { SubscribeAccepted, subscribeRequestSchema } from '../../schemas/alerts.ts';
import { HttpError } from '../../plugins/errors.ts';
import { confirmationMail, confirmUrl, unsubscribeUrl } from '../../outbound/mail-content.ts';
import { checkedQuery } from './me/saved-searches.ts';
import { operation, operations } from '../operation.ts';

const alertsOperation = operations({ access: 'public' }, 'alerts');

/** Confirmation mails one address receives per day at most; further sign-ups are accepted silently. */
export const CONFIRMATIONS_PER_ADDRESS_PER_DAY = 3;

const ACCEPTED = {
  status: 'accepted' as const,
  detail: 'If this address can receive mail, a confirmation message is on its way; the subscription starts when its link is opened.',
};

const TokenQuery = Type.Object({ token: Type.String({ minLength: 10, maxLength: 200 }) }, { additionalProperties: false });
const HtmlPage = { description: 'A short page in Japanese and English', content: { 'text/html': { schema: { type: 'string' } } } };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A short page; with `action`, a button that POSTs to it (the only way a link acts). */
function page(reply: FastifyReply, status: number, ja: string, en: string, action?: { url: string; label: string }): string {
  reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; form-action 'self'");
  const form = action ? `<form method="post" action="${escapeHtml(action.url)}"><button type="submit">${escapeHtml(action.label)}</button></form>` : '';
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex"><title>${ja} / ${en}</title></head>
<body><main><h1>${ja}</h1><p lang="en">${en}</p>${form}</main></body></html>`;
}

/** The link's own path and query (the form posts back to it). */
const selfUrl = (path: string, token: string) => `/v1/subscribers/${path}?token=${encodeURIComponent(token)}`;

const subscriberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The one-click unsubscribe of mail clients posts a form body (RFC 8058).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) => done(null, body));

  app.post(
    '/subscribers',
    operation(
      { access: 'public', extraLimit: 'subscribe' },
      'alerts',
      'subscribe',
      "Subscribe an e-mail address to a daily digest of a saved search's new and amended matches (confirmed by a link)",
      {
        description:
          'Give `saved_search_id` (with the key that owns it) or `search` (a name and the parameters of GET /v1/programs/search). The answer is the same whether or not the address is already known.',
        body: subscribeRequestSchema(app.programSearchParameters),
        response: { 202: SubscribeAccepted },
      },
      [400, 401, 404, 429, 503],
    ),
    async (request, reply) => {
      if (!app.outbound.mailer) throw new HttpError(503, 'E-mail is not configured on this server (SMTP_URL).');
      const { email, saved_search_id: savedSearchId, search } = request.body;
      if ((savedSearchId === undefined) === (search === undefined)) throw new HttpError(400, 'Invalid body: give exactly one of saved_search_id and search');
      const { secrets, baseUrl } = app.outbound;
      const emailHash = secrets.emailHash(email);
      let target: { id: string; name: string; own: boolean };
      if (savedSearchId !== undefined) {
        const identity = request.identity;
        const owned = identity.kind === 'key' ? await app.state.savedSearches.get(savedSearchId, identity.key.id) : null;
        if (!owned) throw new HttpError(404, `Saved search not found: ${savedSearchId}`);
        target = { id: owned.id, name: owned.name, own: false };
      } else {
        const query = checkedQuery(search!.query, app.programSearchParameters);
        // Throttled addresses get the same answer and no mail (and no search is kept for them).
        if (await tooManyConfirmations()) return accepted();
        const created = await app.state.savedSearches.create({ keyId: null, name: search!.name, query: { ...query.params } });
        target = { id: created!.id, name: created!.name, own: true };
      }
      if (target.own === false && (await tooManyConfirmations())) return accepted();
      await app.state.subscribers.create(
        { emailHash, sealedEmail: secrets.sealEmail(emailHash, email), savedSearchId: target.id, ownsSearch: target.own },
        (subscriberId) =>
          confirmationMail(confirmUrl(baseUrl, secrets.token('confirm', subscriberId)), unsubscribeUrl(baseUrl, secrets.token('unsubscribe', subscriberId))),
      );
      return accepted();

      async function tooManyConfirmations(): Promise<boolean> {
        const since = new Date(Date.now() - 24 * 3600_000).toISOString();
        return (await app.state.subscribers.countSince(emailHash, since)) >= CONFIRMATIONS_PER_ADDRESS_PER_DAY;
      }
      function accepted() {
        reply.code(202);
        return ACCEPTED;
      }
    },
  );

  /** The subscriber a confirm link names, or a 400 (a link that is not ours is an API error like any other: {detail}). */
  const confirmable = async (token: string): Promise<string> => {
    const id = app.outbound.secrets.verifyToken('confirm', token);
    if (!id || !(await app.state.subscribers.get(id)))
      throw new HttpError(400, 'This confirmation link is not valid (the subscription may have been cancelled).');
    return id;
  };

  app.get(
    '/subscribers/confirm',
    alertsOperation(
      'confirmSubscription',
      'The confirm link of the confirmation mail: a page whose button confirms (opening the link changes nothing)',
      { querystring: TokenQuery, response: { 200: HtmlPage } },
      [400],
    ),
    async (request, reply) => {
      await confirmable(request.query.token);
      return page(reply, 200, '購読を確定しますか', 'Press the button to start the daily digest.', {
        url: selfUrl('confirm', request.query.token),
        label: '購読を確定する / Confirm',
      });
    },
  );

  app.post(
    '/subscribers/confirm',
    alertsOperation(
      'confirmSubscriptionSubmit',
      "Confirm a subscription (the button of the confirm link's page)",
      { querystring: TokenQuery, response: { 200: HtmlPage } },
      [400],
    ),
    async (request, reply) => {
      const id = await confirmable(request.query.token);
      if (!(await app.state.subscribers.confirm(id)))
        throw new HttpError(400, 'This confirmation link is not valid (the subscription may have been cancelled).');
      return page(reply, 200, '購読を確定しました', 'Your subscription is confirmed: a digest arrives when new or updated programmes match.');
    },
  );

  const unsubscribeToken = (token: string): string => {
    const id = app.outbound.secrets.verifyToken('unsubscribe', token);
    if (!id) throw new HttpError(400, 'This unsubscribe link is not valid.');
    return id;
  };

  app.get(
    '/subscribers/unsubscribe',
    alertsOperation(
      'unsubscribe',
      'The unsubscribe link in every mail: a page whose button unsubscribes (opening the link changes nothing)',
      { querystring: TokenQuery, response: { 200: HtmlPage } },
      [400],
    ),
    async (request, reply) => {
      unsubscribeToken(request.query.token);
      return page(reply, 200, '購読を取り消しますか', 'Press the button to unsubscribe; your address will be deleted.', {
        url: selfUrl('unsubscribe', request.query.token),
        label: '購読を取り消す / Unsubscribe',
      });
    },
  );

  app.post(
    '/subscribers/unsubscribe',
    alertsOperation(
      'unsubscribeOneClick',
      "Unsubscribe: the button of the unsubscribe link's page, and mail clients' one-click unsubscribe (RFC 8058, List-Unsubscribe-Post); the address is deleted",
      { querystring: TokenQuery, response: { 200: HtmlPage } },
      [400],
    ),
    async (request, reply) => {
      // Idempotent: a second click finds nothing to delete and says the same.
      await app.state.subscribers.delete(unsubscribeToken(request.query.token));
      return page(reply, 200, '購読を取り消しました。メールアドレスは削除されました。', 'You are unsubscribed. Your address has been deleted.');
    },
  );
};

export default subscriberRoutes;
