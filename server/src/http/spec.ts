import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The bundled contract (`npm run gen:types` writes it). */
export const API_SPEC_PATH = fileURLToPath(new URL('../../../openapi/generated/openapi.bundled.json', import.meta.url));

export type ApiSpec = {
  paths: Record<string, Record<string, unknown>>;
} & Record<string, unknown>;

let cached: string | null = null;
/** A fresh copy each call: the validator annotates the document it is given. */
export function loadApiSpec(): ApiSpec {
  cached ??= readFileSync(API_SPEC_PATH, 'utf8');
  return JSON.parse(cached) as ApiSpec;
}
