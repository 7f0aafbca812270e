// `settings`: print docs/settings.md (the table of environment settings).
import { renderSettingsMarkdown } from './settings-doc.ts';
import type { Command } from './types.ts';

export const settingsCommand: Command = {
  name: 'settings',
  summary: 'Print the settings reference (docs/settings.md) generated from config.ts',
  async run() {
    process.stdout.write(renderSettingsMarkdown());
    return 0;
  },
};
