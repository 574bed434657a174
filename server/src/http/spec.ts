import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';

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

/**
 * A predicate for one schema of the contract (an OpenAPI 3.0 subset ajv understands: no `nullable`, no `$ref`), for
 * values the request validator cannot see, such as JSON text that a field carries as a string.
 */
export function contractSchemaCheck(schema: object): (value: unknown) => boolean {
  // Shapes and patterns are what matter here; OpenAPI's int32/int64 formats are not ajv's.
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  const check = ajv.compile(schema);
  return (value) => check(value) === true;
}

/** A component schema of the bundled contract, by name. */
export function componentSchema(name: string): Record<string, unknown> {
  const components = loadApiSpec().components as { schemas: Record<string, Record<string, unknown>> };
  const schema = components.schemas[name];
  if (!schema) throw new Error(`The contract has no schema ${name}`);
  return schema;
}
