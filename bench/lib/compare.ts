// Before anything is measured, the service and the baseline must give the same answer to each scenario's requests:
// otherwise the baseline could be measuring a cheaper response. Bodies are compared deeply as JSON; only fields
// that cannot be equal between two answers are left out, and the check says which.
import { createHash } from 'node:crypto';
import type { LoadRequest } from './load.js';
import type { Scenario, Tokens } from './scenarios.js';

/** Fields left out of the comparison, by what makes them differ, as dotted paths (`*` = any array index). */
export const VOLATILE = {
  /** storage URLs carry a signature and an expiry */
  signedUrls: ['data.*.logo.url', 'data.*.avatar.url', 'logo.url', 'avatar.url'],
  /** a write stamps its own time, and the baseline's write comes after the service's */
  writeTimes: ['updated_at', 'audit.updated.at'],
  /** each sign-in issues new tokens */
  tokens: ['access_token', 'refresh_token'],
  /** a signed position for the caller (cursor paging, ADR 0031): the peers page by offset only */
  cursors: ['paginate.next_cursor'],
} as const;

export interface Difference {
  scenario: string;
  request: string;
  detail: string;
}

interface Answer {
  status: number;
  body: unknown;
  etag: string | null;
}

async function send(baseUrl: string, r: LoadRequest, extraHeaders: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${baseUrl}${r.path}`, {
    method: r.method,
    headers: { ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}), ...r.headers, ...extraHeaders },
    ...(r.body !== undefined ? { body: r.body } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  return { status: res.status, body, etag: res.headers.get('etag') };
}

const pathMatches = (pattern: string, path: string[]) => {
  const parts = pattern.split('.');
  return parts.length === path.length && parts.every((p, i) => (p === '*' ? /^\d+$/.test(path[i]!) : p === path[i]));
};

/** Where two JSON values differ (dotted paths with both values), skipping the `ignored` paths. */
export function differences(a: unknown, b: unknown, ignored: readonly string[], path: string[] = []): string[] {
  if (ignored.some((p) => pathMatches(p, path))) return [];
  const at = path.join('.') || '(body)';
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length)
      return [`${at}: ${a.length} items in the service's answer, ${b.length} in the baseline's`];
    return a.flatMap((x, i) => differences(x, b[i], ignored, [...path, String(i)]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort();
    return keys.flatMap((k) => {
      if (!(k in bo))
        return ignored.some((p) => pathMatches(p, [...path, k]))
          ? []
          : [`${[...path, k].join('.')}: only in the service's answer (${JSON.stringify(ao[k])})`];
      if (!(k in ao))
        return ignored.some((p) => pathMatches(p, [...path, k]))
          ? []
          : [`${[...path, k].join('.')}: only in the baseline's answer (${JSON.stringify(bo[k])})`];
      return differences(ao[k], bo[k], ignored, [...path, k]);
    });
  }
  return JSON.stringify(a) === JSON.stringify(b)
    ? []
    : [`${at}: service ${JSON.stringify(a)}, baseline ${JSON.stringify(b)}`];
}

/** The service's ETag of a record body. */
export function etagOf(body: unknown): string | null {
  const r = body as { id?: unknown; updated_at?: unknown } | null;
  if (!r || typeof r.id !== 'string' || typeof r.updated_at !== 'string') return null;
  return `W/"${createHash('sha1').update(`${r.id}|${r.updated_at}`).digest('base64url').slice(0, 22)}"`;
}

const describe = (r: LoadRequest) => `${r.method} ${r.path}${r.body ? ` ${r.body}` : ''}`;
const isWrite = (r: LoadRequest) => r.method === 'PUT' || r.method === 'PATCH';
const isSignIn = (r: LoadRequest) => r.method === 'POST' && r.path === '/api/auth/login';

/**
 * The distinct requests of a scenario (at most `limit`), as they would be sent: a request built at send time is
 * built here too.
 */
function sampleRequests(scenario: Scenario, tokens: Tokens, limit: number): LoadRequest[] {
  const seen = new Set<string>();
  const out: LoadRequest[] = [];
  for (const r of scenario.requests(tokens)) {
    const concrete = r.setupRequest ? r.setupRequest({ ...r }, {}) : r;
    const key = describe(concrete);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(concrete);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * One request to both targets, the service first. A write goes to the baseline with the ETag the service's answer
 * carried, so the baseline's version check is exercised too; both answers must carry the ETag of their body, and
 * the tag the write replaced must then be refused (412) by both. A sign-in's tokens must work on the other target.
 */
async function compareOne(
  scenario: string,
  r: LoadRequest,
  serverUrl: string,
  baselineUrl: string,
): Promise<Difference[]> {
  const out: Difference[] = [];
  const note = (detail: string) => out.push({ scenario, request: describe(r), detail });
  const ignored: string[] = [
    ...VOLATILE.signedUrls,
    ...VOLATILE.cursors,
    ...(isWrite(r) ? VOLATILE.writeTimes : []),
    ...(isSignIn(r) ? VOLATILE.tokens : []),
  ];

  const s = await send(serverUrl, r);
  const b = await send(baselineUrl, r, isWrite(r) && s.etag ? { 'if-match': s.etag } : {});
  if (s.status !== b.status)
    note(`status: service ${s.status}, baseline ${b.status} (${JSON.stringify(b.body).slice(0, 200)})`);
  if (s.status >= 300) note(`the service answered ${s.status}: ${JSON.stringify(s.body).slice(0, 300)}`);
  if (s.status === b.status)
    for (const d of differences(s.body, b.body, ignored)) note(d.length > 400 ? `${d.slice(0, 400)}…` : d);

  if (isWrite(r) && s.status === 200 && b.status === 200) {
    if (s.etag !== etagOf(s.body)) note(`the service's ETag ${s.etag} is not the ETag of its body`);
    if (b.etag !== etagOf(b.body))
      note(`the baseline's ETag ${b.etag} is not the ETag of its body (${etagOf(b.body)})`);
    // The service's tag was current when the baseline wrote; now both must refuse it.
    const stale = s.etag!;
    const [s412, b412] = [
      await send(serverUrl, r, { 'if-match': stale }),
      await send(baselineUrl, r, { 'if-match': stale }),
    ];
    if (s412.status !== 412 || b412.status !== 412)
      note(`a stale If-Match: service ${s412.status}, baseline ${b412.status} (both must be 412)`);
  }
  if (isSignIn(r) && s.status === 200 && b.status === 200) {
    const token = (b.body as { access_token?: string }).access_token;
    const check = await send(serverUrl, {
      method: 'GET',
      path: '/api/proxy/api/me/dashboard-widgets',
      headers: { authorization: `Bearer ${token}` },
    });
    if (check.status !== 200 && check.status !== 403)
      note(`the service refuses the baseline's access token (${check.status})`);
  }
  return out;
}

export interface Comparison {
  /** requests compared */
  requests: number;
  differences: Difference[];
  /** the fields left out, with why */
  ignored: string[];
}

/** Compares the answers of both targets to up to `perScenario` distinct requests of every scenario. */
export async function compareTargets(
  scenarios: Scenario[],
  tokens: Tokens,
  serverUrl: string,
  baselineUrl: string,
  perScenario = 4,
): Promise<Comparison> {
  const differencesFound: Difference[] = [];
  let requests = 0;
  for (const scenario of scenarios) {
    for (const r of sampleRequests(scenario, tokens, perScenario)) {
      requests++;
      differencesFound.push(...(await compareOne(scenario.id, r, serverUrl, baselineUrl)));
    }
  }
  const ignored = [
    `${VOLATILE.signedUrls.join(', ')} (signed storage URLs: presence compared, text not)`,
    `${VOLATILE.writeTimes.join(', ')} of write answers (each write stamps its own time; the ETags are checked against the bodies instead)`,
    `${VOLATILE.tokens.join(', ')} of sign-ins (new tokens each time; the baseline's token is checked on the service)`,
    `${VOLATILE.cursors.join(', ')} (the service's signed cursor to the next page; the peers page by offset only)`,
  ];
  return { requests, differences: differencesFound, ignored };
}

export function formatDifferences(c: Comparison): string {
  return c.differences.map((d) => `  [${d.scenario}] ${d.request}\n    ${d.detail}`).join('\n');
}
