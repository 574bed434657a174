// Generates each operation's code samples (curl and the typed TypeScript client) from the operation itself: its
// method, path, parameter examples and request body example. Written into the bundle as `x-codeSamples`, which
// Redoc shows next to the operation, so a sample changes with the contract and never drifts from it.

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
}

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: {
    content?: Record<string, { example?: unknown; encoding?: Record<string, { contentType?: string }> }>;
  };
  responses?: Record<string, unknown>;
  'x-codeSamples'?: CodeSample[];
}

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

interface Spec {
  servers?: Array<{ url: string }>;
  security?: unknown[];
  paths: Record<string, Record<string, unknown>>;
}

/** Optional query parameters worth showing in a sample (paging, search, the business unit to resolve for). */
const SHOWN_OPTIONAL_QUERY = new Set(['page', 'perpage', 'search', 'bu_code']);

function resolve<T>(spec: Spec, value: T | { $ref: string }): T {
  if (!value || typeof value !== 'object' || !('$ref' in value)) return value;
  const target = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      spec,
    );
  return resolve(spec, target as T);
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const tsString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A JSON value as a TypeScript literal: identifier keys unquoted, strings in single quotes, two-space indents. */
function tsLiteral(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => tsLiteral(v, indent + '  '));
    const oneLine = `[${items.join(', ')}]`;
    return oneLine.length <= 80 && !oneLine.includes('\n')
      ? oneLine
      : `[\n${items.map((i) => `${indent}  ${i},`).join('\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const props = entries.map(
      ([k, v]) => `${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : tsString(k)}: ${tsLiteral(v, indent + '  ')}`,
    );
    const oneLine = `{ ${props.join(', ')} }`;
    if (oneLine.length <= 72 && !oneLine.includes('\n')) return oneLine;
    return `{\n${props.map((p) => `${indent}  ${p},`).join('\n')}\n${indent}}`;
  }
  return typeof value === 'string' ? tsString(value) : JSON.stringify(value);
}

/** The sample of one operation, from its own examples. */
export function codeSamplesOf(spec: Spec, path: string, method: (typeof METHODS)[number], op: Operation): CodeSample[] {
  const baseUrl = spec.servers?.[0]?.url ?? 'http://127.0.0.1:3000';
  const parameters = (op.parameters ?? []).map((p) => resolve(spec, p));
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter(
    (p) => p.in === 'query' && p.example !== undefined && (p.required || SHOWN_OPTIONAL_QUERY.has(p.name)),
  );
  const secured = !(Array.isArray(op.security ?? spec.security) && (op.security ?? spec.security)!.length === 0);
  const content = op.requestBody?.content ?? {};
  const json = content['application/json'];
  const multipart = content['multipart/form-data'];
  const partField = multipart ? (Object.keys((multipart.example as object | undefined) ?? {})[0] ?? 'file') : null;
  // A part declared as CSV (the membership import) is sent as a CSV file holding the example's text; any other part
  // is an image upload.
  const csvText =
    partField && /text\/csv/.test(multipart?.encoding?.[partField]?.contentType ?? '')
      ? String((multipart!.example as Record<string, string | undefined>)[partField] ?? '')
      : null;
  const imageField = csvText === null ? partField : null;
  const csvFile = 'members.csv';
  const binaryResponse = Object.keys(
    (resolve(spec, op.responses?.['200'] ?? {}) as { content?: object }).content ?? {},
  ).some((t) => t.startsWith('image/'));
  const returnsBody = Object.entries(op.responses ?? {}).some(
    ([status, r]) =>
      status.startsWith('2') && Object.keys((resolve(spec, r) as { content?: object }).content ?? {}).length > 0,
  );

  let concretePath = path;
  for (const p of pathParams) concretePath = concretePath.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
  const query = new URLSearchParams(queryParams.map((p): [string, string] => [p.name, String(p.example)])).toString();
  const url = `${baseUrl}${concretePath}${query ? `?${query}` : ''}`;

  // curl
  const verb = method.toUpperCase();
  const curl: string[] = [
    `curl${verb === 'GET' || (verb === 'POST' && (json || multipart)) ? '' : ` -X ${verb}`} ${shellQuote(url)}`,
  ];
  const curlPrelude = csvText !== null ? `printf '%s' ${shellQuote(csvText)} > ${csvFile}\n` : '';
  if (secured) curl.push(`-H "Authorization: Bearer $TOKEN"`);
  if (json) curl.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(json.example ?? {}))}`);
  if (imageField) curl.push(`-F ${shellQuote(`${imageField}=@${imageField}.png;type=image/png`)}`);
  if (csvText !== null) curl.push(`-F ${shellQuote(`${partField}=@${csvFile};type=text/csv`)}`);
  if (binaryResponse) curl.push(`-o ${shellQuote(concretePath.split('/').pop() ?? 'image')}`);
  const curlSource = curlPrelude + curl.join(' \\\n  ');

  // TypeScript, through the typed client
  const lines: string[] = [];
  if (imageField) lines.push(`import { readFile } from 'node:fs/promises';`);
  lines.push(`import { createAdminClient } from './openapi/client.js';`, '');
  lines.push(
    secured
      ? `const api = createAdminClient({ baseUrl: ${tsString(baseUrl)}, getToken: () => process.env.TOKEN });`
      : `const api = createAdminClient({ baseUrl: ${tsString(baseUrl)} });`,
  );
  if (imageField) {
    lines.push(
      '',
      'const form = new FormData();',
      `form.append(${tsString(imageField)}, new Blob([await readFile(${tsString(`${imageField}.png`)})], { type: 'image/png' }), ${tsString(`${imageField}.png`)});`,
    );
  }
  if (csvText !== null) {
    lines.push(
      '',
      'const form = new FormData();',
      `form.append(${tsString(partField!)}, new Blob([${tsString(csvText).replace(/\n/g, '\\n')}], { type: 'text/csv' }), ${tsString(csvFile)});`,
    );
  }
  const options: string[] = [];
  const params: string[] = [];
  if (pathParams.length)
    params.push(`path: ${tsLiteral(Object.fromEntries(pathParams.map((p) => [p.name, p.example])), '    ')}`);
  if (queryParams.length)
    params.push(`query: ${tsLiteral(Object.fromEntries(queryParams.map((p) => [p.name, p.example])), '    ')}`);
  if (params.length) {
    const oneLine = `params: { ${params.join(', ')} }`;
    options.push(
      oneLine.length <= 90 && !oneLine.includes('\n')
        ? oneLine
        : `params: {\n${params.map((p) => `    ${p},`).join('\n')}\n  }`,
    );
  }
  if (json) options.push(`body: ${tsLiteral(json.example ?? {}, '  ')}`);
  if (partField) {
    options.push(
      `// The generated types render a binary part as a string; the client sends the FormData as it is.\n  body: form as unknown as { ${partField}: string }`,
    );
  }
  if (binaryResponse) options.push(`parseAs: 'blob'`);
  const call = `api.${verb}(${tsString(path)}${options.length ? `, {\n${options.map((o) => `  ${o},`).join('\n')}\n}` : ''})`;
  lines.push(
    '',
    `const { ${returnsBody ? 'data, ' : ''}error } = await ${call};`,
    'if (error) throw new Error(error.detail);',
  );
  if (binaryResponse) lines.push('console.log(data.type, data.size);');
  else if (returnsBody) lines.push('console.log(data);');

  return [
    { lang: 'Shell', label: 'curl', source: curlSource },
    { lang: 'TypeScript', label: 'TypeScript', source: lines.join('\n') },
  ];
}

/** Adds `x-codeSamples` to every operation of a bundled spec (in place) and returns it. */
export function addCodeSamples<T extends object>(bundle: T): T {
  const spec = bundle as unknown as Spec;
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (op) op['x-codeSamples'] = codeSamplesOf(spec, path, method, op);
    }
  }
  return bundle;
}
