// Driving Debian's Chromium (apt-get install chromium; .ci/run installs it)
// with playwright-core, as a person would use the pages: headless, no
// sandbox (tests run as root), background networking off, a fresh profile
// per launch. Plus what every page test checks: nothing loaded from another
// host, no script error, no CSP violation, no serious accessibility
// violation (axe-core), no raw key, stack trace or SQL on the page.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/config.ts';

export const CHROMIUM = '/usr/bin/chromium';

/** Skip without Chromium on a developer's machine; in CI (which installs it) a missing browser fails instead. */
export const browserSkip: string | false =
  existsSync(CHROMIUM) || process.env.CI ? false : 'Chromium is not installed: apt-get install chromium (.ci/run does)';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fresh browser: playwright's launch() gives each one its own temporary profile (user-data-dir). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** A desktop (1366 px, the commonest laptop width) and a phone (390 px). */
export const VIEWPORTS = {
  desktop: { width: 1366, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** What scrolls sideways on the page (nothing may, at any width): the widest offenders. */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && !e.closest('pre, .table-scroll'))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} right=${Math.round(e.getBoundingClientRect().right)}`);
  });
}

/**
 * Text shown in the wrong language: for an English page, any Japanese; for
 * a Japanese page, English phrases (two words or more) other than `allowed`
 * names. Data as published (marked translate="no"), code, option lists and
 * what `exempt` selects are not the page's language.
 */
export async function foreignText(page: Page, lang: 'ja' | 'en', options: { allowed?: string[]; exempt?: string } = {}): Promise<string[]> {
  return page.evaluate(
    ({ lang, allowed, exempt }) => {
      const skip = `code, pre, script, style, option, svg, [translate="no"], [hidden]${exempt ? `, ${exempt}` : ''}`;
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const found: string[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest(skip) || !parent.checkVisibility()) continue;
        // Marked as another language (the switch's name of the other language): not the page's text.
        if (parent.closest('[lang]')?.getAttribute('lang') !== lang) continue;
        let text = node.textContent ?? '';
        for (const name of allowed) text = text.split(name).join(' ');
        const wrong = lang === 'en' ? /[\u3040-\u30ff\u3400-\u9fff]/.test(text) : /\b[A-Za-z]{2,}[,.]?\s+[A-Za-z]{2,}\b/.test(text);
        if (wrong) found.push((node.textContent ?? '').trim().slice(0, 80));
      }
      return found;
    },
    { lang, allowed: options.allowed ?? [], exempt: options.exempt ?? '' },
  );
}

/** Where screenshots go: test-results/ (gitignored), or SCREENSHOT_DIR (docs/screenshots to refresh the committed ones). */
export const SCREENSHOT_DIR = path.resolve(REPO_ROOT, process.env.SCREENSHOT_DIR ?? 'test-results');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled' });
  return file;
}

/**
 * Watch a page for what must never happen on it: a request to another host,
 * an uncaught script error, a Content-Security-Policy violation, a console
 * error other than the failed calls a test provokes on purpose.
 */
export function watch(page: Page, origin: string, expectedStatuses: number[] = []) {
  const problems: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) problems.push(`request to another host: ${url}`);
  });
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    const expected = expectedStatuses.some((s) => text.includes(`status of ${s}`));
    if (!expected) problems.push(`console error: ${text}`);
  });
  return { problems };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. The
 * script is evaluated through the DevTools protocol, which the page's CSP
 * does not govern (an injected <script> would be refused, rightly).
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** What must never be shown: the given secrets, a stack trace, SQL. Returns what was found. */
export async function leaks(page: Page, secrets: string[]): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  const markup = await page.content();
  const found: string[] = [];
  for (const secret of secrets) if (text.includes(secret) || markup.includes(secret)) found.push('a raw key');
  if (/\bat [\w.<>]+ \(?[^)\s]*:\d+:\d+\)?/.test(text)) found.push('a stack trace');
  if (/\b(SELECT\s+[\w*,\s.]+\s+FROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|SQLITE_|syntax error at or near)\b/i.test(text)) found.push('SQL');
  return found;
}
