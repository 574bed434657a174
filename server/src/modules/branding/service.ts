import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { components } from '../../../../openapi/generated/schema.js';
import { BadRequestError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../core/errors.js';
import { IMAGE_FORMATS, MAX_UPLOAD_BYTES, sniffImage, type UploadedFile } from '../../core/image-check.js';
import { assertCan, assertVisible, type AuthContext } from '../../core/permissions.js';
import type { FreshnessCheck } from '../../core/etag.js';
import type { StoragePort } from '../../storage/port.js';
import type { AuditTrail, Change } from '../audit/service.js';
import { brandingRepository, type BrandedTable, type ImageField } from './repository.js';

type UploadResult = components['schemas']['UploadResult'];

const NOT_FOUND: Record<BrandedTable, string> = {
  clusters: 'Cluster not found',
  business_units: 'Business unit not found',
};

/** The operation and audit target of each upload. */
const UPLOAD_ACTIONS = {
  clusters: { logo: ['uploadClusterLogo', 'cluster'], avatar: ['uploadClusterAvatar', 'cluster'] },
  business_units: {
    logo: ['uploadBusinessUnitLogo', 'business_unit'],
    avatar: ['uploadBusinessUnitAvatar', 'business_unit'],
  },
} as const satisfies Record<BrandedTable, Record<ImageField, readonly [Change['action'], Change['target']['type']]>>;

/** The operation and audit target of each removal. */
const REMOVE_ACTIONS = {
  clusters: { logo: ['deleteClusterLogo', 'cluster'], avatar: ['deleteClusterAvatar', 'cluster'] },
  business_units: {
    logo: ['deleteBusinessUnitLogo', 'business_unit'],
    avatar: ['deleteBusinessUnitAvatar', 'business_unit'],
  },
} as const satisfies Record<BrandedTable, Record<ImageField, readonly [Change['action'], Change['target']['type']]>>;

export function brandingService(deps: { knex: Knex; storage: StoragePort; logger?: Logger; audit: AuditTrail }) {
  const { knex, storage, logger, audit } = deps;
  const repo = brandingRepository();

  return {
    /**
     * Stores a logo or avatar at once (independently of any form save) and replaces the previous image. The replaced
     * object is kept: the record's history shows it as the "before" picture (ADR 0028). Content is checked by magic
     * bytes; nothing is stored when it is refused.
     */
    async upload(
      auth: AuthContext,
      table: BrandedTable,
      id: string,
      field: ImageField,
      file: UploadedFile | undefined,
    ): Promise<UploadResult> {
      const record = await repo.find(knex, table, id);
      if (!record || record.deleted_at !== null) throw new NotFoundError(NOT_FOUND[table]);
      assertVisible(auth, record.cluster_id, NOT_FOUND[table]);
      assertCan(auth, 'cluster.update', record.cluster_id);

      if (!file || file.field !== field) {
        throw new BadRequestError(`The image must be sent in the form field "${field}"`, [
          { path: `/body/${field}`, message: 'is required' },
        ]);
      }
      if (file.size > MAX_UPLOAD_BYTES)
        throw new PayloadTooLargeError(`The file is larger than ${MAX_UPLOAD_BYTES} bytes (5 MB)`);
      const format = sniffImage(file.buffer);
      if (!format)
        throw new UnsupportedMediaTypeError('The file is not a JPEG, PNG or WebP image (checked by its content)');

      // The contract's file route takes `<uuid>.<ext>` keys only; the record row is what links a key to its owner.
      const { extension, contentType } = IMAGE_FORMATS[format];
      const key = `${randomUUID()}.${extension}`;
      await storage.put(key, file.buffer, contentType);
      try {
        await knex.transaction(async (trx) => {
          const locked = await repo.lock(trx, table, id);
          if (!locked || locked.deleted_at !== null) throw new NotFoundError(NOT_FOUND[table]);
          await repo.setImageKey(trx, table, id, field, key);
          const replaced = field === 'logo' ? locked.logo_key : locked.avatar_key;
          const [action, type] = UPLOAD_ACTIONS[table][field];
          await audit.record(trx, auth, {
            action,
            target: { type, id },
            clusterId: record.cluster_id,
            before: { [`${field}_key`]: replaced },
            after: { [`${field}_key`]: key },
          });
        });
      } catch (err) {
        await storage.delete(key).catch(() => undefined);
        throw err;
      }
      return storage.signedUrl(key);
    },

    /**
     * Clears a logo or avatar at once and deletes its stored object, with every earlier image of that field the
     * record's uploads replaced (ADR 0028): a removed picture is gone, history included, which then reads as text.
     * Nothing set is nothing to do: no event, no error. The caller's If-Match names the record's version, checked under
     * the row lock.
     */
    async remove(
      auth: AuthContext,
      table: BrandedTable,
      id: string,
      field: ImageField,
      assertFresh: FreshnessCheck,
    ): Promise<void> {
      const record = await repo.find(knex, table, id);
      if (!record || record.deleted_at !== null) throw new NotFoundError(NOT_FOUND[table]);
      assertVisible(auth, record.cluster_id, NOT_FOUND[table]);
      assertCan(auth, 'cluster.update', record.cluster_id);

      const removed = await knex.transaction(async (trx) => {
        const locked = await repo.lock(trx, table, id);
        if (!locked || locked.deleted_at !== null) throw new NotFoundError(NOT_FOUND[table]);
        assertFresh(locked);
        const current = field === 'logo' ? locked.logo_key : locked.avatar_key;
        if (current === null) return null;
        const earlier = await repo.replacedImageKeys(trx, UPLOAD_ACTIONS[table][field][0], id, field);
        await repo.setImageKey(trx, table, id, field, null);
        const [action, type] = REMOVE_ACTIONS[table][field];
        await audit.record(trx, auth, {
          action,
          target: { type, id },
          clusterId: record.cluster_id,
          before: { [`${field}_key`]: current },
          after: { [`${field}_key`]: null },
        });
        return [...new Set([current, ...earlier])];
      });
      for (const key of removed ?? []) {
        // The record no longer points at the object; a leftover is only wasted space, never a failed removal.
        await storage
          .delete(key)
          .catch((err: unknown) => logger?.warn({ err, key }, 'could not delete the removed image'));
      }
    },
  };
}

export type BrandingService = ReturnType<typeof brandingService>;
