import type { Identifier } from 'react-admin';
import type { BrandedRecord, BrandedResource, ImageKind, UploadResult } from '../../types';
import type { ApiClient } from '../api';
import type { EtagStore } from '../etagStore';
import { unwrap } from '../outcome';

/** Sends the file alone as multipart, under the form field the contract names after the kind of image. */
const multipart = (field: ImageKind, file: Blob) => () => {
  const form = new FormData();
  form.append(field, file);
  return form;
};

// The generated types render `format: binary` as a string; `multipart` above sends the Blob itself.
const binary = (file: Blob) => file as unknown as string;

/** The calls on one cluster or business unit beyond CRUD. */
export function recordMethods(c: ApiClient, etags: EtagStore) {
  return {
    /** POST …/{id}/logo|avatar as multipart; stored at once, independently of any form save. */
    async uploadImage(
      resource: BrandedResource,
      recordId: Identifier,
      kind: ImageKind,
      file: Blob,
    ): Promise<UploadResult> {
      const path = { params: { path: { id: String(recordId) } }, bodySerializer: multipart(kind, file) };
      if (resource === 'clusters') {
        return kind === 'logo'
          ? unwrap(await c.POST('/api-system/clusters/{id}/logo', { ...path, body: { logo: binary(file) } }))
          : unwrap(await c.POST('/api-system/clusters/{id}/avatar', { ...path, body: { avatar: binary(file) } }));
      }
      return kind === 'logo'
        ? unwrap(await c.POST('/api-system/business-units/{id}/logo', { ...path, body: { logo: binary(file) } }))
        : unwrap(await c.POST('/api-system/business-units/{id}/avatar', { ...path, body: { avatar: binary(file) } }));
    },

    /** DELETE …/{id}/logo|avatar with the record's ETag; removed at once, independently of any form save. */
    async removeImage(resource: BrandedResource, recordId: Identifier, kind: ImageKind, edited?: unknown) {
      const id = String(recordId);
      const path = { params: { path: { id }, header: etags.ifMatch(resource, id, edited) } };
      if (resource === 'clusters') {
        unwrap(
          kind === 'logo'
            ? await c.DELETE('/api-system/clusters/{id}/logo', path)
            : await c.DELETE('/api-system/clusters/{id}/avatar', path),
        );
        return;
      }
      unwrap(
        kind === 'logo'
          ? await c.DELETE('/api-system/business-units/{id}/logo', path)
          : await c.DELETE('/api-system/business-units/{id}/avatar', path),
      );
    },

    /** Brings a soft-deleted cluster or BU back. */
    async restore(resource: BrandedResource, recordId: Identifier): Promise<{ data: BrandedRecord }> {
      const path = { params: { path: { id: String(recordId) } } };
      const data =
        resource === 'clusters'
          ? unwrap(await c.POST('/api-system/clusters/{id}/restore', path))
          : unwrap(await c.POST('/api-system/business-units/{id}/restore', path));
      return { data };
    },
  };
}
