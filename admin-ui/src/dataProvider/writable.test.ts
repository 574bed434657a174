import { describe, expect, it } from 'vitest';
import type { ImageKind } from '../types';
import { everyMember } from '../lib/exhaustive';
import { requestBodies, schemaNamed } from '../test/bundledSpec';
import { NOT_SENT, WRITABLE } from './writable';
import { IMPORT_FILE_FIELD } from './methods/memberImportUpload';

const IMAGE_KINDS = everyMember<ImageKind>()(['logo', 'avatar']);

const notSentOf = (schema: string): Record<string, string> =>
  Object.hasOwn(NOT_SENT, schema) ? NOT_SENT[schema as keyof typeof NOT_SENT] : {};
const writableOf = (schema: string): readonly string[] | undefined =>
  Object.hasOwn(WRITABLE, schema) ? WRITABLE[schema as keyof typeof WRITABLE] : undefined;

const jsonBodies = [
  ...new Set(
    requestBodies()
      .filter((b) => b.mediaType === 'application/json')
      .map((b) => b.schema),
  ),
];

describe('request bodies the console writes', () => {
  it('finds the request bodies of the contract', () => {
    expect(jsonBodies).toEqual(
      expect.arrayContaining([
        'ClusterInput',
        'BusinessUnitInput',
        'PrintTemplateMappingCreate',
        'PrintTemplateMappingUpdate',
      ]),
    );
  });

  for (const schema of jsonBodies) {
    it(`sends every field of ${schema}, or says why not`, () => {
      const sent = writableOf(schema);
      expect(sent, `${schema} has no list of the fields the console sends`).toBeDefined();
      const notSent = notSentOf(schema);
      const handled = [...(sent ?? []), ...Object.keys(notSent)].sort();
      expect(handled).toEqual(Object.keys(schemaNamed(schema).properties ?? {}).sort());
      for (const [field, reason] of Object.entries(notSent)) expect(reason.trim(), `${schema}.${field}`).not.toBe('');
    });
  }

  it('lists no body the contract does not have', () => {
    expect(Object.keys(WRITABLE).filter((s) => !jsonBodies.includes(s))).toEqual([]);
    expect(Object.keys(NOT_SENT).filter((s) => !jsonBodies.includes(s))).toEqual([]);
  });

  // The membership import is the one upload that is not an image: its CSV goes under its own field.
  const isMemberImport = (b: { operation: string }) => b.operation === 'POST /api-system/memberships/import';

  it('uploads each image under the one form field its schema names', () => {
    const uploads = requestBodies().filter((b) => b.mediaType === 'multipart/form-data' && !isMemberImport(b));
    expect(uploads.length).toBeGreaterThan(0);
    for (const { operation, schema } of uploads) {
      const fields = Object.keys(schemaNamed(schema).properties ?? {});
      expect(fields, operation).toHaveLength(1);
      expect(IMAGE_KINDS, operation).toContain(fields[0]);
      expect(operation.endsWith(`/${fields[0]}`), operation).toBe(true);
    }
  });

  it('uploads the membership CSV under the one form field its schema names', () => {
    const upload = requestBodies().filter((b) => b.mediaType === 'multipart/form-data' && isMemberImport(b));
    expect(upload).toHaveLength(1);
    expect(Object.keys(schemaNamed(upload[0]!.schema).properties ?? {})).toEqual([IMPORT_FILE_FIELD]);
  });
});
