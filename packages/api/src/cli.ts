// Operator CLI: `npm run cli -- <command> [options]`. Each command is a small
// module under cli/; this file only dispatches.
import { loadConfig, ConfigError } from './config.ts';
import { COMMANDS } from './cli/index.ts';

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    printHelp();
    return name ? 0 : 1;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`unknown command: ${name}\n`);
    printHelp();
    return 1;
  }
  const config = loadConfig();
  return command.run(rest, config);
}

function printHelp(): void {
  console.error('usage: npm run cli -- <command> [options]\n\ncommands:');
  for (const c of COMMANDS) console.error(`  ${c.name.padEnd(16)} ${c.summary}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
