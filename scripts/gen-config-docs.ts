// Writes `.env.example` and `docs/configuration.md` from the settings table (server/src/config-schema.ts), so the
// documented settings are exactly the ones the server reads. `npm run check:generated` fails when they are stale.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { SETTINGS, SETTING_GROUPS, type Setting } from '../server/src/config-schema.js';

export const ENV_EXAMPLE_PATH = '.env.example';
export const CONFIGURATION_DOC_PATH = 'docs/configuration.md';

const SOURCE = 'server/src/config-schema.ts';
const settings: readonly Setting[] = SETTINGS;

/** Markdown to the plain text of a comment: links keep their words, code loses its backticks. */
function plain(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').replace(/`/g, '');
}

/** Words wrapped to `width` columns, each line after `prefix`. */
function wrapped(text: string, prefix: string, width = 120): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(prefix + line);
  return lines;
}

function defaultText(s: Setting): string {
  if (s.default !== undefined) return `\`${s.default}\``;
  return s.unset ?? '—';
}

export function envExample(): string {
  const out = [
    '# Every setting the server reads, with its default. Generated from ' + SOURCE + ' by',
    '# `npm run gen:config-docs`: edit the table there, not this file. Meanings in docs/configuration.md.',
    '#',
    '# Copy to .env, uncomment what you set, and load it into the environment before starting, e.g.',
    '#   set -a; . ./.env; set +a; npm start',
    '# Never commit a .env holding real secrets.',
  ];
  for (const group of SETTING_GROUPS) {
    out.push('', `# ── ${group} ${'─'.repeat(Math.max(3, 112 - group.length))}`);
    for (const s of settings.filter((x) => x.group === group)) {
      out.push('');
      const unset = s.default !== undefined ? ` Default: ${s.default}.` : s.unset ? ` Unset: ${plain(s.unset)}.` : '';
      const required = s.requiredInProduction ? ' Required with NODE_ENV=production.' : '';
      out.push(...wrapped(plain(s.meaning) + unset + required, '# '));
      out.push(`# ${s.name}=${s.example ?? s.default ?? ''}`);
    }
  }
  return out.join('\n') + '\n';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function configurationDoc(): string {
  const out = [
    `<!-- Generated from ${SOURCE} by \`npm run gen:config-docs\`: edit the table there, not this file. -->`,
    '',
    '# Configuration',
    '',
    'Every setting comes from the environment and is checked at start: a bad value stops the server with one line per',
    'problem, naming the variable. Unset and blank are the same. [`.env.example`](../.env.example) lists them all with',
    'their defaults; production, replicas and the proxy in front are in [Operations](operations.md).',
  ];
  for (const group of SETTING_GROUPS) {
    out.push('', `## ${group}`, '', '| Variable | Default | Meaning |', '|---|---|---|');
    for (const s of settings.filter((x) => x.group === group)) {
      const required = s.requiredInProduction ? ' **Required with `NODE_ENV=production`.**' : '';
      out.push(`| \`${s.name}\` | ${cell(defaultText(s))} | ${cell(s.meaning)}${required} |`);
    }
  }
  return out.join('\n') + '\n';
}

/** Each generated file and what it must hold. */
export function configDocs(): Record<string, string> {
  return { [ENV_EXAMPLE_PATH]: envExample(), [CONFIGURATION_DOC_PATH]: configurationDoc() };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [path, content] of Object.entries(configDocs())) writeFileSync(path, content);
  console.log(`wrote ${Object.keys(configDocs()).join(' and ')}`);
}
