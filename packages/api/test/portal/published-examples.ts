// Every example a reader can paste, as the README and the landing page show
// it: the shell blocks (curl commands, creating a key, installing the
// client), the client script, the MCP host configurations. Shared by the
// test that runs them against a started server (examples.test.ts) and the
// pack-install test that runs the stdio configuration with npx
// (packages/mcp/test/pack-install.registry.ts).
//
// A README shell line is either run (curl, creating a key, installing the
// client) or one of the setup and maintenance commands below that the
// harness itself stands for (it starts the server as `npm start` does and
// packs the packages as `npm run pack:packages` does). A line that is
// neither fails the test: a new example cannot be added without being run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { CLONE_PLACEHOLDER, KEY_PLACEHOLDER } from '../../src/portal/examples.ts';

/** The origin the README's examples name. */
export const README_ORIGIN = 'http://127.0.0.1:8080';

export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  type?: string;
  url?: string;
  headers?: Record<string, string>;
}
export type McpHostConfig = { mcpServers: Record<string, McpServerConfig> };

export interface ShellBlock {
  /** Where the block is (for messages). */
  where: string;
  script: string;
  /** Its command lines (continuations joined), comments left out. */
  commands: string[];
}

export interface Examples {
  /** Shell blocks that are run: curl commands and creating a key. */
  shell: ShellBlock[];
  /** The block that installs the client into a new directory. */
  clientSetup: ShellBlock[];
  /** Client scripts (example.mjs). */
  clientScripts: string[];
  mcpStdio: McpHostConfig[];
  mcpHttp: McpHostConfig[];
}

/**
 * README shell lines that are not examples to run here: what the harness
 * does itself (start the server, pack), the test commands, and maintenance
 * commands that rebuild data or need the network.
 */
export const HARNESS_COMMANDS: [RegExp, string][] = [
  [/^git clone /, 'the harness runs in the clone'],
  [/^cd jp-support-programs$/, 'the harness runs in the clone'],
  [/^npm ci( && npm start)?$/, 'the harness starts the server as npm start does'],
  [/^(PORT=\d+ )?(DATA_DIR=\S+ )?npm start$/, 'the harness starts the server as npm start does, on its own port and data directory'],
  [/^npm test( -- .*)?$/, 'the test suite itself'],
  [/^npm run test:faults$/, 'the fault suite'],
  [/^npm run pack:packages$/, 'the harness packs the packages (scripts/pack-packages.ts)'],
  [/^npm install \.\/dist-packages\/\*\.tgz$/, 'installing the three tarballs: packages/mcp/test/pack-install.registry.ts'],
  [/^npm run cli -- (ingest|sync) /, 'rebuilds the catalogue or reads the primary sources (the ingest and sync tests)'],
];

/** Lines that are run: curl, exporting a key created by the CLI. */
const RUN_COMMANDS = [/^curl /, /^export JPSP_API_KEY=\$\(npm run -s cli -- keys create --tier (free|paid)\)$/];
/** The client's install lines. */
const CLIENT_SETUP = [/^mkdir try-client && cd try-client$/, /^npm install \S+\/dist-packages\/jp-support-client-[\d.]+\.tgz$/];

/** A shell script's commands: comments dropped, backslash continuations joined. */
export function shellCommands(script: string): string[] {
  const commands: string[] = [];
  let current = '';
  for (const raw of script.split('\n')) {
    const line = current ? raw.trim() : raw.replace(/\s+#.*$/, '').trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1).trim()} `;
      continue;
    }
    commands.push((current + line).replace(/\s+#\s.*$/, '').trim());
    current = '';
  }
  return commands;
}

const matchesAny = (patterns: RegExp[], command: string) => patterns.some((p) => p.test(command));

/** Sort fenced blocks into examples; throws naming any shell line that is neither run nor a harness command. */
export function classify(blocks: { language: string; text: string; where: string }[]): Examples {
  const examples: Examples = { shell: [], clientSetup: [], clientScripts: [], mcpStdio: [], mcpHttp: [] };
  for (const { language, text, where } of blocks) {
    if (language === 'sh') {
      const commands = shellCommands(text);
      const run = commands.filter((c) => matchesAny(RUN_COMMANDS, c));
      const setup = commands.filter((c) => matchesAny(CLIENT_SETUP, c));
      const unknown = commands.filter((c) => !run.includes(c) && !setup.includes(c) && !HARNESS_COMMANDS.some(([p]) => p.test(c)));
      if (unknown.length) throw new Error(`${where}: a shell line that no test runs: ${unknown.join(' | ')} (published-examples.ts)`);
      if (run.length && setup.length) throw new Error(`${where}: client setup and other examples in one block`);
      if (run.length && run.length !== commands.length) throw new Error(`${where}: examples mixed with setup commands in one block`);
      if (run.length) examples.shell.push({ where, script: text, commands: run });
      if (setup.length) examples.clientSetup.push({ where, script: text, commands: setup });
    } else if (language === 'js') {
      examples.clientScripts.push(text);
    } else if (language === 'json') {
      const config = JSON.parse(text) as McpHostConfig;
      if (!config.mcpServers) throw new Error(`${where}: a JSON block that is not an MCP host configuration`);
      for (const server of Object.values(config.mcpServers)) (server.url ? examples.mcpHttp : examples.mcpStdio).push(config);
    } else if (language !== '' && language !== 'text') {
      throw new Error(`${where}: a \`\`\`${language} block that no test runs`);
    }
  }
  return examples;
}

/** The README's fenced blocks (```sh, ```js, ```json, …; plain ``` blocks are diagrams). */
export function readmeBlocks(readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')): { language: string; text: string; where: string }[] {
  return [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    language: m[1],
    text: m[2].trimEnd(),
    where: `README.md line ${readme.slice(0, m.index).split('\n').length}`,
  }));
}

export const readmeExamples = (): Examples => classify(readmeBlocks());

const LANDING_LANGUAGES: Record<string, string> = { sh: 'sh', js: 'js', json: 'json' };

/** The landing page's examples: its `<code class="language-…">` blocks. */
export function landingExamples(html: string): Examples {
  const decodeEntities = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const blocks = [...html.matchAll(/<code id="([\w-]+)" class="language-(\w+)">([\s\S]*?)<\/code>/g)].map((m) => ({
    language: LANDING_LANGUAGES[m[2]] ?? m[2],
    text: decodeEntities(m[3]),
    where: `landing page #${m[1]}`,
  }));
  if (blocks.length < 4) throw new Error(`the landing page shows ${blocks.length} examples`);
  return classify(blocks);
}

/** What a reader puts in: this server's origin for the README's, their key, their clone (where dist-packages/ is). */
export function personalise(text: string, values: { origin?: string; key?: string; clone?: string }): string {
  let out = text;
  if (values.origin) out = out.replaceAll(README_ORIGIN, values.origin);
  if (values.key) out = out.replaceAll(KEY_PLACEHOLDER, values.key);
  if (values.clone) out = out.replaceAll(CLONE_PLACEHOLDER, values.clone);
  return out;
}
