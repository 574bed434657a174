import type { components } from '../../../openapi/generated/schema.js';

type Audit = components['schemas']['Audit'];

/** The audit columns of a row as loaded by `selectAuditActors` (timestamps as Date or ISO text). */
export interface AuditRow {
  created_at: Date | string;
  created_by_id: string | null;
  created_by_name: string | null;
  updated_at: Date | string;
  updated_by_id: string | null;
  updated_by_name: string | null;
  deleted_at: Date | string | null;
  deleted_by_id: string | null;
  deleted_by_name: string | null;
}

export interface AuditFields {
  audit: Audit;
  created_at: string;
  created_by_name: string | null;
  updated_at: string;
  updated_by_name: string | null;
  deleted_at: string | null;
  deleted_by_name: string | null;
}

export function iso(value: Date | string): string;
export function iso(value: Date | string | null | undefined): string | null;
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/**
 * A record's audit envelope: the nested `audit` (who created, last changed and deleted it, and when) and the same
 * values as flat fields, which the contract sends side by side. Users carry no avatar yet.
 */
export function auditOf(row: AuditRow): AuditFields {
  const actor = (at: Date | string | null, id: string | null, name: string | null) => ({
    at: iso(at),
    id: id ?? null,
    name: name ?? null,
    avatar: null,
  });
  return {
    audit: {
      created: actor(row.created_at, row.created_by_id, row.created_by_name),
      updated: actor(row.updated_at, row.updated_by_id, row.updated_by_name),
      deleted: actor(row.deleted_at, row.deleted_by_id, row.deleted_by_name),
    },
    created_at: iso(row.created_at),
    created_by_name: row.created_by_name ?? null,
    updated_at: iso(row.updated_at),
    updated_by_name: row.updated_by_name ?? null,
    deleted_at: iso(row.deleted_at),
    deleted_by_name: row.deleted_by_name ?? null,
  };
}
