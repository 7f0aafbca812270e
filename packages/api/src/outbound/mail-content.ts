// The words of subscriber mail, in Japanese then English: the confirmation
// of a new subscription (our words only) and the digest of a saved search's
// matches (sent only to an address whose owner confirmed). Every message
// carries its unsubscribe link (PUBLIC_BASE_URL).
import type { SavedSearchMatch } from '../state/repositories/saved-searches.ts';

export interface Composed {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The unsubscribe link written into a subscriber's mail (also its List-Unsubscribe header). */
export const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl}/v1/subscribers/unsubscribe?token=${encodeURIComponent(token)}`;
export const confirmUrl = (baseUrl: string, token: string) => `${baseUrl}/v1/subscribers/confirm?token=${encodeURIComponent(token)}`;

/**
 * The confirmation of a new subscription. Anyone may sign any address up,
 * so it carries none of the caller's text (no search name, no query): only
 * our own words and our own links (issue 24, L3). Nothing is sent unless
 * the button on the confirm link's page is pressed.
 */
export function confirmationMail(confirm: string, unsubscribe: string): Composed {
  const text = [
    '新着・更新の補助金・助成金のお知らせ（1日1回）の購読の申し込みを受け付けました。',
    `次のリンクのページで「購読を確定する」を押すと購読が始まります: ${confirm}`,
    'お心当たりがない場合は、このメールを破棄してください（確定しない限り何も届かず、7日後に申し込みは削除されます）。',
    `購読の取り消し: ${unsubscribe}`,
    '',
    'We received a request to send this address a daily digest of new and updated support programmes.',
    `To start it, open this link and press "Confirm": ${confirm}`,
    'If this was not you, ignore this message: nothing is sent unless you confirm, and the request is deleted after 7 days.',
    `Unsubscribe: ${unsubscribe}`,
  ].join('\n');
  const html = `<p>新着・更新の補助金・助成金のお知らせ（1日1回）の購読の申し込みを受け付けました。<a href="${escapeHtml(confirm)}">購読を確定する</a></p>
<p>We received a request to send this address a daily digest of new and updated support programmes. <a href="${escapeHtml(confirm)}">Confirm it</a>.</p>
<p>お心当たりがない場合は、このメールを破棄してください。 If this was not you, ignore this message.</p>
<p><a href="${escapeHtml(unsubscribe)}">購読の取り消し / Unsubscribe</a></p>`;
  return { subject: '購読の確認 / Confirm your subscription', text, html };
}

const LABEL: Record<string, [string, string]> = {
  'program.created': ['新規', 'new'],
  'program.amended': ['更新', 'updated'],
};

export function digestMail(searchName: string, matches: readonly SavedSearchMatch[], baseUrl: string, unsubscribe: string): Composed {
  const line = (m: SavedSearchMatch) => {
    const [ja, en] = LABEL[m.type] ?? [m.type, m.type];
    return { ja, en, name: m.primaryName ?? m.unifiedId, url: `${baseUrl}/v1/programs/${encodeURIComponent(m.unifiedId)}`, id: m.unifiedId };
  };
  const lines = matches.map(line);
  const text = [
    `「${searchName}」に一致する制度の新着・更新: ${matches.length}件`,
    `${matches.length} new or updated programme(s) match "${searchName}":`,
    '',
    ...lines.map((l) => `[${l.ja} / ${l.en}] ${l.name} (${l.id})\n  ${l.url}`),
    '',
    `購読の取り消し / Unsubscribe: ${unsubscribe}`,
  ].join('\n');
  const html = `<p>「${escapeHtml(searchName)}」に一致する制度の新着・更新: ${matches.length}件 / ${matches.length} new or updated programme(s)</p>
<ul>${lines.map((l) => `<li>[${l.ja} / ${l.en}] <a href="${escapeHtml(l.url)}">${escapeHtml(l.name)}</a> (${escapeHtml(l.id)})</li>`).join('')}</ul>
<p><a href="${escapeHtml(unsubscribe)}">購読の取り消し / Unsubscribe</a></p>`;
  return { subject: `「${searchName}」新着・更新 ${matches.length}件 / ${matches.length} new or updated programmes`, text, html };
}
