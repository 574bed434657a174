import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import type { Schemas } from '../../core/contract.js';
import { etagOf, ifMatch, type FreshnessCheck } from '../../core/etag.js';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../../core/errors.js';
import { assertCan, can, type AuthContext } from '../../core/permissions.js';
import { auditRepository, type AuditEvent } from './repository.js';

/** The event a change in progress reverts: its own event names it (`labels.revert_of`). */
const reverting = new AsyncLocalStorage<{ eventId: string }>();

/** The event a change running now reverts, if it is a revert. */
export const revertedEventId = (): string | undefined => reverting.getStore()?.eventId;

type Fields = Record<string, unknown>;
type Cluster = Schemas['Cluster'];
type BusinessUnit = Schemas['BusinessUnit'];
type Mapping = Omit<Schemas['PrintTemplateMapping'], 'explanation'>;

/**
 * The use cases a revert goes through: each owning module's own read and update, handed in by the composition root
 * (the audit module depends on no other module), so a revert is checked and recorded like every other edit.
 */
export interface RevertTargets {
  clusters: {
    get(auth: AuthContext, id: string): Promise<Cluster>;
    update(auth: AuthContext, id: string, input: Schemas['ClusterInput'], fresh: FreshnessCheck): Promise<unknown>;
  };
  businessUnits: {
    get(auth: AuthContext, id: string): Promise<BusinessUnit>;
    update(auth: AuthContext, id: string, input: Schemas['BusinessUnitInput'], fresh: FreshnessCheck): Promise<unknown>;
  };
  mappings: {
    get(id: string): Promise<Mapping>;
    update(
      auth: AuthContext,
      id: string,
      input: Schemas['PrintTemplateMappingUpdate'],
      fresh: FreshnessCheck,
    ): Promise<unknown>;
  };
}

/** The input fields of a business unit a revert puts back; the JSON ones (formats, config) and the secret are not. */
const BU_FIELDS = [
  'cluster_id',
  'code',
  'name',
  'alias_name',
  'description',
  'max_license_users',
  'is_hq',
  'is_active',
  'hotel_name',
  'hotel_tel',
  'hotel_email',
  'hotel_address',
  'hotel_zip_code',
  'company_name',
  'company_tel',
  'company_email',
  'company_address',
  'company_zip_code',
  'tax_no',
  'branch_no',
  'date_format',
  'date_time_format',
  'time_format',
  'long_time_format',
  'short_time_format',
  'timezone',
  'calculation_method',
  'default_currency_id',
] as const;

/** Everything a full update of a business unit sends, the fields a revert leaves alone included. */
const BU_INPUT = [
  ...BU_FIELDS,
  'perpage_format',
  'amount_format',
  'quantity_format',
  'recipe_format',
  'config',
  'db_connection',
] as const;

const CLUSTER_FIELDS = ['code', 'name', 'alias_name', 'max_license_bu', 'is_active'] as const;

const MAPPING_FIELDS = [
  'document_type',
  'report_template_id',
  'is_default',
  'display_label',
  'display_order',
  'allow_business_unit',
  'deny_business_unit',
  'is_active',
] as const;

/** What each revertible action edits: its record's kind, words for it, and the fields a revert may put back. */
const REVERTIBLE = {
  updateCluster: { type: 'cluster', noun: 'cluster', fields: CLUSTER_FIELDS },
  updateBusinessUnit: { type: 'business_unit', noun: 'business unit', fields: BU_FIELDS },
  updatePrintTemplateMapping: {
    type: 'print_template_mapping',
    noun: 'print template mapping',
    fields: MAPPING_FIELDS,
  },
} as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const shown = (v: unknown) => (v === null || v === undefined || v === '' ? 'empty' : JSON.stringify(v));

/** Whether the trail shows the event to its reader: a cluster's need `cluster.read` on it, others `user.read`. */
function mayRead(auth: AuthContext, event: AuditEvent): boolean {
  return event.cluster_id
    ? can(auth.permissions, 'cluster.read', event.cluster_id)
    : can(auth.permissions, 'user.read');
}

/**
 * 412 unless every field still holds the value the event wrote: a revert puts back what one change replaced, never
 * over a later change the caller has not seen.
 */
function assertUnchangedSince(noun: string, current: Fields, changes: AuditEvent['changes']): void {
  for (const [field, change] of Object.entries(changes)) {
    if (!same(current[field], change.after))
      throw new PreconditionFailedError(
        `The ${noun} was changed by someone else after this change: its ${field} is now ${shown(current[field])}, ` +
          `not ${shown(change.after)}. Reload its History and revert the latest change instead.`,
      );
  }
}

/** The version the revert read, as an If-Match: the update refuses with 412 if the record changes in between. */
const asRead = (record: { id: string; updated_at: string }): FreshnessCheck => ifMatch(etagOf(record));

export function auditReverts({ knex, targets }: { knex: Knex; targets: RevertTargets }) {
  const repo = auditRepository({ knex });

  const revertOne = {
    async cluster(auth: AuthContext, id: string, changes: AuditEvent['changes']) {
      const current = await targets.clusters.get(auth, id);
      if (current.deleted_at) throw new ConflictError('The cluster was deleted after this change: restore it first');
      assertUnchangedSince('cluster', current, changes);
      const input = Object.fromEntries(CLUSTER_FIELDS.map((f) => [f, current[f]])) as Schemas['ClusterInput'];
      for (const [field, change] of Object.entries(changes)) Object.assign(input, { [field]: change.before });
      await targets.clusters.update(auth, id, input, asRead(current));
    },

    async business_unit(auth: AuthContext, id: string, changes: AuditEvent['changes']) {
      const current = await targets.businessUnits.get(auth, id);
      if (current.deleted_at)
        throw new ConflictError('The business unit was deleted after this change: restore it first');
      assertUnchangedSince('business unit', current, changes);
      const input = Object.fromEntries(
        BU_INPUT.map((f) => [f, current[f] ?? null]),
      ) as unknown as Schemas['BusinessUnitInput'];
      for (const [field, change] of Object.entries(changes)) Object.assign(input, { [field]: change.before });
      await targets.businessUnits.update(auth, id, input, asRead(current));
    },

    async print_template_mapping(auth: AuthContext, id: string, changes: AuditEvent['changes']) {
      // The mapping's update checks no permission of its own: its route does, and a revert is such a route.
      assertCan(auth, 'print_template_mapping.manage', null);
      const current = await targets.mappings.get(id);
      assertUnchangedSince('print template mapping', current, changes);
      // The update merges what it is sent, and null means "unchanged": an empty label is sent blank, an empty list [].
      const input: Schemas['PrintTemplateMappingUpdate'] = {};
      for (const [field, change] of Object.entries(changes))
        Object.assign(input, {
          [field]: change.before ?? (field === 'display_label' ? '' : field.endsWith('_business_unit') ? [] : null),
        });
      await targets.mappings.update(auth, id, input, asRead(current));
    },
  };

  return {
    /**
     * Puts back the values one field change replaced, as an ordinary edit of its record by `auth`: the owning module's
     * update checks access, tenancy, licence and uniqueness as for any edit, and records the change, whose event names
     * the reverted one. Answers that new event.
     */
    async revert(auth: AuthContext, eventId: string): Promise<AuditEvent> {
      const event = await repo.find(knex, eventId);
      if (!event || !mayRead(auth, event)) throw new NotFoundError('Audit event not found');
      const kind = REVERTIBLE[event.action as keyof typeof REVERTIBLE] as
        (typeof REVERTIBLE)[keyof typeof REVERTIBLE] | undefined;
      if (!kind || event.target_type !== kind.type || !event.target_id)
        throw new ConflictError(
          'Only a field change of a cluster, business unit or print template mapping can be reverted; ' +
            'this event is not one',
        );
      const changes = event.changes;
      const fields = Object.keys(changes);
      if (fields.length === 0) throw new ConflictError('This event changed no field: there is nothing to revert');
      const fixed = fields.filter((f) => !(kind.fields as readonly string[]).includes(f));
      if (fixed.length > 0)
        throw new ConflictError(
          `A change to ${fixed.join(', ')} cannot be reverted from the History: edit the ${kind.noun} instead`,
        );
      const targetId = event.target_id;
      await reverting.run({ eventId }, () => revertOne[kind.type](auth, targetId, changes));
      const recorded = await repo.findRevertOf(knex, eventId);
      if (!recorded) throw new Error(`the revert of ${eventId} recorded no event`);
      return recorded;
    },
  };
}

export type AuditReverts = ReturnType<typeof auditReverts>;
