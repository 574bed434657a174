// The contract as clients see it at /openapi.json, /openapi.yaml and /docs: the committed bundle with the servers list
// (and the addresses in the code samples) set to where this deployment is reached.
import { createHash } from 'node:crypto';

/** Stands for the deployment's address in the built docs page; replaced when the page is served. */
export const DOCS_BASE_URL_PLACEHOLDER = 'https://public-base-url.invalid';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type SpecDocument = {
  servers?: Array<{ url: string; description?: string }>;
  paths?: Record<string, Record<string, Json>>;
} & Record<string, Json | undefined>;

/** A short fingerprint of the bundle's text: the built docs page is keyed by it, so a changed spec gets new docs. */
export function bundleHash(bundleText: string): string {
  return createHash('sha256').update(bundleText).digest('hex').slice(0, 16);
}

/** The bundle with one server, `baseUrl`, and the code samples calling it. The input is left as it is. */
export function publishedSpec(bundle: object, baseUrl: string): SpecDocument {
  const spec = structuredClone(bundle) as SpecDocument;
  // The generated code samples call the bundle's first server.
  const sampleBaseUrl = spec.servers?.[0]?.url;
  spec.servers = [{ url: baseUrl, description: 'This deployment' }];
  for (const item of Object.values(spec.paths ?? {})) {
    for (const op of Object.values(item)) {
      const samples = (op as { 'x-codeSamples'?: Array<{ source: string }> } | null)?.['x-codeSamples'];
      if (sampleBaseUrl)
        for (const sample of samples ?? []) sample.source = sample.source.split(sampleBaseUrl).join(baseUrl);
    }
  }
  return spec;
}

const PLAIN_KEY = /^[A-Za-z_$/][A-Za-z0-9_.$/{}-]*$/;
const PLAIN_STRING = /^[A-Za-z_/][A-Za-z0-9 _.,/()-]*$/;
const YAML_WORDS = /^(true|false|yes|no|on|off|null|y|n|~)$/i;

function scalar(value: string | number | boolean | null): string {
  if (typeof value !== 'string') return String(value);
  // A JSON string is a valid YAML double-quoted scalar; plain only where YAML cannot read it as anything else.
  return PLAIN_STRING.test(value) && !YAML_WORDS.test(value) && !value.endsWith(' ') && !/: | #/.test(value)
    ? value
    : JSON.stringify(value);
}

const key = (k: string) => (PLAIN_KEY.test(k) && !YAML_WORDS.test(k) ? k : JSON.stringify(k));

/** YAML of a JSON value (block style; strings quoted whenever a plain scalar could be misread). */
export function toYaml(value: unknown, indent = ''): string {
  const v = value as Json;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return v.map((item) => `\n${indent}- ${nested(item, indent + '  ')}`).join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return '{}';
    return entries.map(([k, item]) => `\n${indent}${key(k)}:${inline(item, indent + '  ')}`).join('');
  }
  return scalar(v);
}

/** After `key:` — a scalar or empty collection on the same line, otherwise a block below. */
function inline(value: Json, indent: string): string {
  const text = toYaml(value, indent);
  return text.startsWith('\n') ? text : ` ${text}`;
}

/** After `- ` — a mapping continues on the same line, other blocks below. */
function nested(value: Json, indent: string): string {
  const text = toYaml(value, indent);
  return text.startsWith('\n') ? text.slice(indent.length + 1) : text;
}

export function yamlDocument(value: unknown): string {
  return `${toYaml(value).replace(/^\n/, '')}\n`;
}
