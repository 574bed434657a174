import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface SchemaObject {
  properties?: Record<string, unknown>;
  enum?: unknown[];
}

interface BundledSpec {
  paths: Record<
    string,
    Record<string, { operationId?: string; requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }>
  >;
  components: { schemas: Record<string, SchemaObject> };
}

const SPEC_FILE = join(dirname(fileURLToPath(import.meta.url)), '../../../openapi/generated/openapi.bundled.json');

/** The bundled contract as `npm run gen:types` writes it, read the way the server and the mock read it. */
export const bundledSpec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as BundledSpec;

export const schemaNamed = (name: string): SchemaObject => {
  const schema = bundledSpec.components.schemas[name];
  if (!schema) throw new Error(`The contract has no schema ${name}`);
  return schema;
};

/** Every request body of every operation: the schema it names and its media type. */
export function requestBodies(): { operation: string; schema: string; mediaType: string }[] {
  return Object.entries(bundledSpec.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      Object.entries(op.requestBody?.content ?? {}).map(([mediaType, { schema }]) => ({
        operation: `${method.toUpperCase()} ${path}`,
        schema: schema?.$ref?.replace('#/components/schemas/', '') ?? '(inline schema)',
        mediaType,
      })),
    ),
  );
}

/** The operationIds of every operation that is not a read (GET). */
export const writeOperationIds = (): string[] =>
  Object.values(bundledSpec.paths).flatMap((item) =>
    Object.entries(item).flatMap(([method, op]) => (method !== 'get' && op.operationId ? [op.operationId] : [])),
  );
