// docs/settings.md is rendered from the SETTINGS table (config.ts); a test
// fails when the committed file and the table disagree.
import { SETTINGS } from '../config.ts';

export function renderSettingsMarkdown(): string {
  const lines = [
    '# Settings',
    '',
    'Every setting is an environment variable; this page is generated from `packages/api/src/config.ts`',
    '(`npm run cli -- settings > docs/settings.md`).',
    '',
    '| variable | default | meaning |',
    '|---|---|---|',
    ...SETTINGS.map((s) => `| \`${s.name}\` | ${s.default === null ? 'unset' : `\`${s.default}\``} | ${s.help.replace(/\|/g, '\\|')} |`),
    '',
  ];
  return lines.join('\n');
}
