import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The bundled contract (`npm run gen:types` writes it). */
export const API_SPEC_PATH = fileURLToPath(new URL('../../../openapi/generated/openapi.bundled.json', import.meta.url));

export type ApiSpec = {
  paths: Record<string, Record<string, { operationId?: string; security?: unknown[] } | unknown>>;
  security?: unknown[];
} & Record<string, unknown>;

let cached: string | null = null;
/** A fresh copy each call: the validator annotates the document it is given. */
export function loadApiSpec(): ApiSpec {
  cached ??= readFileSync(API_SPEC_PATH, 'utf8');
  return JSON.parse(cached) as ApiSpec;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

export interface RouteMatcher {
  method: string;
  pattern: RegExp;
}

/** Operations the contract marks `security: []` (sign-in, health, signed files): reachable without a token. */
export function publicOperations(spec: ApiSpec): RouteMatcher[] {
  const out: RouteMatcher[] = [];
  for (const [p, item] of Object.entries(spec.paths)) {
    const source = p.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
    const pattern = new RegExp(`^${source}/?$`);
    const ops = Object.entries(item).filter(([method]) => METHODS.includes(method));
    const isPublic = ([, op]: [string, unknown]) => {
      const security = (op as { security?: unknown[] }).security;
      return Array.isArray(security) && security.length === 0;
    };
    // A path whose every operation is public is public for any method, so a wrong method gets 405, not 401.
    if (ops.length > 0 && ops.every(isPublic)) out.push({ method: '*', pattern });
    else for (const op of ops.filter(isPublic)) out.push({ method: op[0].toUpperCase(), pattern });
  }
  return out;
}
