// The calendar as RFC 5545 text (ical-generator): all-day events
// (DTSTART;VALUE=DATE, DTEND the next day), summary in Japanese, the window
// and source in the description, the source as URL, stable UIDs, DTSTAMP
// the catalogue's ingest time (so the same data gives the same file).
import ical from 'ical-generator';
import type { DeadlineEvent } from './deadlines.ts';
import { oneLine } from '../lib/untrusted-text.ts';

/**
 * A URL as the URL property carries it: the generator escapes `,` `;` `\`
 * as in TEXT values, which a URI value must not have, so they are
 * percent-encoded first (the same URL to a web server).
 */
const uriValue = (url: string) => url.replace(/[,;\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const utcDay = (date: string, plusDays = 0) => new Date(Date.parse(`${date}T00:00:00Z`) + plusDays * 86_400_000);

export function deadlinesIcs(events: readonly DeadlineEvent[], options: { name: string; stamp: Date }): string {
  const calendar = ical({
    // The generator writes the calendar's name as it is: a stored name is one line (and one kept from before that rule is made so).
    name: oneLine(options.name),
    prodId: { company: 'jp-support-programs', product: 'deadline-calendar', language: 'JA' },
    // All-day dates are Japan dates; calendar apps read this as the calendar's zone.
    x: [{ key: 'X-WR-TIMEZONE', value: 'Asia/Tokyo' }],
  });
  for (const e of events) {
    const label = e.kind === 'deadline' ? '締切' : '受付開始';
    const window = `受付期間 / Application window: ${e.window_start ?? '?'} – ${e.window_end ?? '?'}`;
    calendar.createEvent({
      id: e.uid,
      start: utcDay(e.date),
      end: utcDay(e.date, 1),
      allDay: true,
      stamp: options.stamp,
      summary: `${label}: ${e.primary_name}`,
      description: [window, e.authority_name, e.prefecture, e.source_url ? `出典 / Source: ${e.source_url}` : null, `unified_id: ${e.unified_id}`]
        .filter(Boolean)
        .join('\n'),
      url: e.source_url ? uriValue(e.source_url) : undefined,
    });
  }
  return calendar.toString();
}
