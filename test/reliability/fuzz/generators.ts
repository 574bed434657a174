// Request generators derived from the contract: valid values from each schema, then hostile variations of them.
// Ids from the database are written as `@@pool:<name>:<n>@@` tokens and resolved when the request is sent, so a
// seed replays the same sequence of requests against any freshly seeded database.
import fc from 'fast-check';
import { deref, type Spec, type SpecOperation } from '../../support/spec.js';

export type PoolName =
  | 'clusters'
  | 'businessUnits'
  | 'users'
  | 'clusterUsers'
  | 'buUsers'
  | 'mappings'
  | 'widgets'
  | 'reportTemplates'
  | 'currencies'
  | 'datasets';

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  example?: unknown;
  default?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
};

export interface FuzzRequest {
  op: string;
  method: string;
  /** Path and query, with pool tokens. */
  url: string;
  /** Already serialised body (or raw bytes for multipart), with pool tokens. */
  body?:
    | { kind: 'json' | 'raw'; text: string; contentType?: string }
    | { kind: 'multipart'; field: string; bytes: number[]; filename: string; type: string };
  auth: 'admin' | 'operator' | 'none' | 'garbage';
  headers: Record<string, string>;
}

/** encodeURIComponent that survives lone surrogates (they become U+FFFD). */
const enc = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('utf8'));

export const poolRef = (pool: PoolName) => fc.nat(10_000).map((n) => `@@pool:${pool}:${n}@@`);

const HUGE = 'x'.repeat(100_000);
const HOSTILE_STRINGS = [
  '',
  ' ',
  '   \t\n',
  'a'.repeat(3),
  'a'.repeat(50),
  'a'.repeat(51),
  'a'.repeat(255),
  'a'.repeat(256),
  HUGE,
  '😀'.repeat(50),
  'é'.repeat(255),
  'Ωmega ünïcödé 漢字 עברית',
  '\u0000',
  'a\u0000b',
  '\u202e\u200b\ufeff',
  '\ud800',
  "' OR '1'='1",
  "'; drop table clusters; --",
  '%',
  '_',
  '\\',
  '%_%\\',
  '"',
  '{"a":1}',
  '{',
  ']',
  '$where',
  '${7*7}{{7*7}}',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  'null',
  'true',
  '-1',
  '1e309',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

const MALFORMED_IDS = [
  '1',
  '0',
  '-1',
  'null',
  'undefined',
  "'%20or%201=1--",
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  'abc',
  '00000000-0000-0000-0000-00000000000',
  '00000000-0000-0000-0000-0000000000000',
  'g0000000-0000-0000-0000-000000000000',
  '{00000000-0000-0000-0000-000000000000}',
  '00000000000000000000000000000000',
  '%F0%9F%98%80',
  'x'.repeat(5000),
];

/** Anything at all where a value is expected: wrong types, boundary and hostile strings, odd numbers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1.5, 1e308, -1e308, 1000001),
  fc.constantFrom(true, false, null),
  fc.constantFrom([], {}, [1, 2], { $ne: null }, [null], [{}], { nested: { deep: ['x'] } }),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
);

function resolve(spec: Spec, s: Schema | undefined): Schema {
  return s ? deref(spec, s) : {};
}

function uuidPoolFor(name: string): PoolName | null {
  if (/^(user_id)$/.test(name)) return 'users';
  if (/^cluster_id$/.test(name)) return 'clusters';
  if (/^(business_unit_id|parent_bu_id)$/.test(name)) return 'businessUnits';
  if (/^report_template_id$/.test(name)) return 'reportTemplates';
  if (/^default_currency_id$/.test(name)) return 'currencies';
  return null;
}

function validString(s: Schema, name: string, text?: fc.Arbitrary<string>): fc.Arbitrary<string> {
  if (s.format === 'uuid') {
    const pool = uuidPoolFor(name);
    return pool ? fc.oneof({ weight: 4, arbitrary: poolRef(pool) }, { weight: 1, arbitrary: fc.uuid() }) : fc.uuid();
  }
  if (s.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (s.format === 'date')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (s.format === 'email') return fc.emailAddress();
  if (text && (!s.pattern || s.pattern === '\\S')) return text;
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 60, 60);
  const base = fc.string({
    minLength: Math.max(min, 1),
    maxLength: Math.max(max, 1),
    unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789-'),
  });
  // The contract's own limits: the exact maximum is valid (hostile variants go one past it).
  const lengths = [min, 3, 50, 255, s.maxLength ?? 0]
    .filter((n) => n >= min && n <= Math.min(s.maxLength ?? 255, 5_000) && n > 0)
    .map((n) => 'B'.repeat(n));
  const opts: Array<fc.Arbitrary<string>> = [base];
  if (lengths.length) opts.push(fc.constantFrom(...lengths));
  if (s.example !== undefined && typeof s.example === 'string') opts.push(fc.constant(s.example));
  return fc.oneof(...opts);
}

/** A value that the schema accepts (mostly: patterns are approximated by the examples). */
/** With `text`, every free-text string (no format, enum or pattern) is drawn from it instead: valid shapes, hostile text. */
export function validValue(
  spec: Spec,
  raw: Schema | undefined,
  name = '',
  depth = 0,
  text?: fc.Arbitrary<string>,
): fc.Arbitrary<unknown> {
  const s = resolve(spec, raw);
  let arb: fc.Arbitrary<unknown>;
  if (s.oneOf || s.anyOf)
    arb = fc.oneof(...(s.oneOf ?? s.anyOf)!.map((x) => validValue(spec, x, name, depth + 1, text)));
  else if (s.allOf)
    arb = validValue(spec, Object.assign({}, ...s.allOf.map((x) => resolve(spec, x))) as Schema, name, depth + 1, text);
  else if (s.enum) arb = fc.constantFrom(...s.enum);
  else if (s.type === 'string') arb = validString(s, name, text);
  else if (s.type === 'integer') arb = fc.integer({ min: s.minimum ?? -1000, max: Math.min(s.maximum ?? 1000, 1000) });
  else if (s.type === 'number') arb = fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true });
  else if (s.type === 'boolean') arb = fc.boolean();
  else if (s.type === 'array')
    arb =
      depth > 4
        ? fc.constant([])
        : fc.array(validValue(spec, s.items, name, depth + 1, text), {
            minLength: s.minItems ?? 0,
            maxLength: Math.min(s.maxItems ?? 4, 4),
          });
  else if (s.type === 'object' || s.properties) {
    if (depth > 4 || !s.properties) arb = fc.constant({});
    else {
      const entries = Object.fromEntries(
        Object.entries(s.properties).map(([k, v]) => [k, validValue(spec, v, k, depth + 1, text)]),
      );
      arb = fc.record(entries, { requiredKeys: s.required ?? [] });
      if (text && s.additionalProperties === true)
        arb = fc.tuple(arb, text).map(([o, t]) => ({ ...(o as object), [t]: t }));
    }
  } else
    arb = text
      ? fc.oneof(
          text,
          text.map((t) => ({ [t]: t })),
          text.map((t) => [t]),
        )
      : fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean());
  return s.nullable ? fc.option(arb, { nil: null, freq: 6 }) : arb;
}

/** A valid body, then one of: unchanged, a field made hostile, a required field missing, an extra field, or nonsense. */
function jsonBody(spec: Spec, schema: Schema): fc.Arbitrary<FuzzRequest['body']> {
  const s = resolve(spec, schema);
  const valid = validValue(spec, s) as fc.Arbitrary<Record<string, unknown>>;
  const keys = Object.keys(s.properties ?? {});
  const json = (v: unknown) => ({ kind: 'json' as const, text: JSON.stringify(v) });
  const variants: Array<fc.WeightedArbitrary<FuzzRequest['body']>> = [
    { weight: 4, arbitrary: valid.map(json) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('__proto__', 'constructor', 'id', 'deleted_at', 'is_super_admin', 'created_by_id', 'x'),
          hostileValue,
        )
        .map(([k, v]) => ({
          kind: 'raw' as const,
          text: `{"${k}":${JSON.stringify(v ?? null)}}`,
          contentType: 'application/json',
        })),
    },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc
          .constantFrom(
            '{',
            '{"code":',
            'nul',
            '{"a":1,}',
            "{'a':1}",
            '[',
            '"',
            '\u0000',
            '{"a":"\\ud800"}',
            '['.repeat(5000) + ']'.repeat(5000),
            '{"a":1}{"b":2}',
            '',
          )
          .map((text) => ({ kind: 'raw' as const, text, contentType: 'application/json' })),
        valid.map((v) => ({ kind: 'raw' as const, text: JSON.stringify(v), contentType: 'text/plain' })),
        valid.map((v) => ({
          kind: 'raw' as const,
          text: JSON.stringify(v),
          contentType: 'application/x-www-form-urlencoded',
        })),
        hostileValue.map((v) => json(v)),
      ),
    },
  ];
  // Valid shapes whose free text (nested formats, config values and keys included) is hostile.
  variants.push({
    weight: 8,
    arbitrary: validValue(
      spec,
      s,
      '',
      0,
      fc.constantFrom('\u0000', 'a\u0000b', '\ud800', "'; --", '\\u0000', '%_\\', '\u202e\ufeff'),
    ).map(json),
  });
  // One past each string field's contract limit (the validator must refuse it, never the database).
  const bounded = keys.filter((k) => typeof resolve(spec, s.properties![k]).maxLength === 'number');
  if (bounded.length > 0) {
    variants.push({
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...bounded))
        .map(([v, k]) => json({ ...v, [k]: 'L'.repeat(resolve(spec, s.properties![k]).maxLength! + 1) })),
    });
  }
  if (keys.length > 0) {
    variants.push({
      weight: 6,
      arbitrary: fc.tuple(valid, fc.constantFrom(...keys), hostileValue).map(([v, k, h]) => json({ ...v, [k]: h })),
    });
    variants.push({
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...keys)).map(([v, k]) => {
        const copy = { ...v };
        delete copy[k];
        return json(copy);
      }),
    });
    variants.push({
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), hostileValue)
        .map(([v, k, h]) => json({ ...v, [k]: h })),
    });
  }
  return fc.oneof(...variants);
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
function multipartBody(field: string): fc.Arbitrary<FuzzRequest['body']> {
  return fc.record({
    kind: fc.constant('multipart' as const),
    field: fc.constantFrom(field, field, 'file', '', 'logo[]', '__proto__'),
    bytes: fc.oneof(
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }).map((b) => [...PNG, ...b]),
    ),
    filename: fc.constantFrom('a.png', '../../evil.png', 'x.svg', '', 'a'.repeat(300), 'ü.jpg', 'a\u0000.png'),
    type: fc.constantFrom('image/png', 'image/svg+xml', 'application/octet-stream', 'text/html'),
  });
}

function pathParam(op: SpecOperation, wellFormed: boolean): fc.Arbitrary<string> {
  const p = op.path;
  const pools: PoolName[] = [];
  if (p.startsWith('/api-system/clusters/')) pools.push('clusters');
  else if (p.startsWith('/api-system/business-units/')) pools.push('businessUnits');
  else if (p.startsWith('/api-system/user/clusters/'))
    pools.push(op.method === 'get' ? 'clusters' : 'clusterUsers', 'clusters');
  else if (p.startsWith('/api-system/user/business-units/'))
    pools.push(op.method === 'get' ? 'businessUnits' : 'buUsers', 'businessUnits');
  else if (p.startsWith('/api-system/print-template-mappings/')) pools.push('mappings');
  else if (p.includes('dashboard-widgets')) pools.push('widgets');
  else if (p.includes('datasets')) pools.push('datasets');
  const options: Array<fc.WeightedArbitrary<string>> = [
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_IDS) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map(enc) },
  ];
  if (wellFormed && pools.length)
    return fc.oneof(
      { weight: 8, arbitrary: fc.oneof(...pools.map(poolRef)) },
      { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
    );
  if (wellFormed) return fc.uuid({ version: 4 });
  for (const pool of pools) options.push({ weight: 5, arbitrary: poolRef(pool) });
  return fc.oneof(...options);
}

const SORT_HOSTILE = [
  'name;drop table clusters',
  'code:asc,name:desc',
  'name:sideways',
  ':asc',
  'name:',
  '"name":asc',
  'created_at:desc,created_at:asc',
  'id',
  'password_hash:asc',
  '(select 1):asc',
  'name:asc,'.repeat(50),
  'NAME:ASC',
  'name asc',
];
const SEARCH_HOSTILE = [
  "' OR 1=1 --",
  '%',
  '_',
  '\\',
  '%%',
  '\\%',
  "'); select pg_sleep(5); --",
  '{"$gt":""}',
  '*',
  '😀',
  '\u0000',
  'a'.repeat(255),
  'a'.repeat(5000),
];

function sortFields(param: { description?: string }): string[] {
  const m = /Fields: ([^.]+)\./.exec(param.description ?? '');
  return m
    ? m[1]!
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
    : [];
}

function validQueryValue(
  spec: Spec,
  param: { name: string; schema?: unknown; example?: unknown; description?: string },
): fc.Arbitrary<string> {
  if (param.name === 'sort') {
    const fields = sortFields(param);
    if (fields.length)
      return fc
        .array(fc.tuple(fc.constantFrom(...fields), fc.constantFrom('asc', 'desc')), { minLength: 1, maxLength: 3 })
        .map((ts) => ts.map(([f, d]) => `${f}:${d}`).join(','));
  }
  const s = resolve(spec, param.schema as Schema);
  // Examples of patterned parameters are strings (or numbers) the pattern accepts.
  if (s.pattern && (typeof param.example === 'string' || typeof param.example === 'number'))
    return fc.constant(String(param.example));
  if (param.name === 'search')
    return fc.oneof(
      fc.constantFrom('a', 'and', 'CL', 'hotel', 'admin', '%', "o'brien", '_'),
      fc.string({ maxLength: 10 }),
    );
  return validValue(spec, s, param.name).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

function hostileQueryValue(param: { name: string }): fc.Arbitrary<string> {
  const hostile: Array<fc.Arbitrary<string>> = [
    fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 1000)),
    fc.string({ maxLength: 20 }),
  ];
  if (param.name === 'sort') hostile.push(fc.constantFrom(...SORT_HOSTILE));
  if (param.name === 'search') hostile.push(fc.constantFrom(...SEARCH_HOSTILE));
  if (param.name === 'page' || param.name === 'perpage')
    hostile.push(fc.constantFrom('-1', '0', '101', '1.5', '1e3', '99999999999999999999', 'abc', ''));
  return fc.oneof(...hostile);
}

type Entries = Array<readonly [string, string | undefined] | undefined>;

/** Both ways clients encode a query: strictly (`%20`), or as forms and URLSearchParams do (`+`, `* ' ( ) !` bare). */
const queryEncoding = fc.constantFrom<'strict' | 'form'>('strict', 'form');

function queryString([entries, encoding]: readonly [Entries, 'strict' | 'form']): string {
  const defined = entries.filter((e): e is readonly [string, string] => !!e && e[1] !== undefined);
  if (defined.length === 0) return '';
  if (encoding === 'form')
    return `?${new URLSearchParams(defined.map(([k, v]): [string, string] => [Buffer.from(k).toString(), Buffer.from(v).toString()])).toString()}`;
  return `?${defined.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
}

/**
 * One request for `op`: about a third are well-formed calls by the admin (to reach deep into the handlers and
 * change data), the rest carry hostile query values, bodies, ids, tokens or headers.
 */
export function requestArbitrary(spec: Spec, op: SpecOperation): fc.Arbitrary<FuzzRequest> {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query') as Array<{
    name: string;
    schema?: unknown;
    example?: unknown;
    description?: string;
  }>;
  const content = op.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema as Schema | undefined;
  const multipartField = content['multipart/form-data']
    ? Object.keys(resolve(spec, content['multipart/form-data'].schema as Schema).properties ?? { file: {} })[0]!
    : null;
  const pathOf = (id: fc.Arbitrary<string>) =>
    op.path.includes('{') ? id.map((v) => op.path.replace(/\{[^}]+\}/, v)) : fc.constant(op.path);
  const build = (r: {
    path: string;
    query: string;
    body: FuzzRequest['body'];
    auth: FuzzRequest['auth'];
    headers?: Record<string, string>;
  }): FuzzRequest => ({
    op: op.operationId ?? `${op.method} ${op.path}`,
    method: op.method.toUpperCase(),
    url: r.path + r.query,
    body: op.method === 'get' ? undefined : r.body,
    auth: r.auth,
    headers: r.headers ?? {},
  });

  const validQuery = fc
    .tuple(
      fc.tuple(
        ...params.map((p) =>
          fc.option(
            validQueryValue(spec, p).map((v) => [p.name, v] as const),
            { freq: 2, nil: undefined },
          ),
        ),
      ),
      queryEncoding,
    )
    .map(queryString);
  const validBody: fc.Arbitrary<FuzzRequest['body']> = jsonSchema
    ? validValue(spec, jsonSchema).map((v) => ({
        kind: 'json' as const,
        text: JSON.stringify(v),
      }))
    : multipartField
      ? multipartBody(multipartField)
      : fc.constant(undefined);
  const validRequest = fc
    .record({
      path: pathOf(pathParam(op, true)),
      query: validQuery,
      body: validBody,
      auth: fc.constant<FuzzRequest['auth']>('admin'),
    })
    .map(build);

  const hostileQuery = fc
    .tuple(
      fc.tuple(
        ...params.map((p) =>
          fc.option(
            fc
              .oneof({ weight: 2, arbitrary: validQueryValue(spec, p) }, { weight: 3, arbitrary: hostileQueryValue(p) })
              .map((v) => [p.name, v] as const),
            { freq: 2, nil: undefined },
          ),
        ),
        fc.option(
          fc.tuple(
            fc.constantFrom('unknown', 'sort[]', '__proto__', 'page', 'constructor'),
            fc.string({ maxLength: 10 }),
          ),
          { freq: 4, nil: undefined },
        ),
      ),
      queryEncoding,
    )
    .map(queryString);
  const hostileBody: fc.Arbitrary<FuzzRequest['body']> = jsonSchema
    ? jsonBody(spec, jsonSchema)
    : multipartField
      ? multipartBody(multipartField)
      : fc.option(
          fc
            .constantFrom('{}', '{"a":1}', 'junk')
            .map((text) => ({ kind: 'raw' as const, text, contentType: 'application/json' })),
          { freq: 10, nil: undefined },
        );
  const hostileRequest = fc
    .record({
      path: pathOf(pathParam(op, false)),
      query: hostileQuery,
      body: hostileBody,
      auth: fc.constantFrom<FuzzRequest['auth']>(
        'admin',
        'admin',
        'admin',
        'admin',
        'admin',
        'operator',
        'none',
        'garbage',
      ),
      headers: fc.option(
        fc.constantFrom<Record<string, string>>(
          { 'if-match': 'W/"nope"' },
          { 'if-match': '*' },
          { 'if-match': '"' + 'x'.repeat(300) + '"' },
          { 'x-request-id': 'bad id with spaces' },
          { accept: 'text/html' },
        ),
        { freq: 6, nil: undefined },
      ),
    })
    .map((r) => build({ ...r, headers: r.headers ?? undefined }));
  return fc.oneof({ weight: 2, arbitrary: validRequest }, { weight: 3, arbitrary: hostileRequest });
}
