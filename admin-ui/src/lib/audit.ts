import type { AuditedRecord } from '../types';

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` in local time, used in export file names (data, not text to read: screens use lib/format.ts). */
export function formatDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export interface AuditEntry {
  at: string | null;
  by: string | null;
}

interface AuditView {
  created: AuditEntry;
  /** Null when the record was never updated after creation (updated_at equals created_at). */
  updated: AuditEntry | null;
  deleted: AuditEntry | null;
}

const pick = (flat: string | null | undefined, nested: string | null | undefined) =>
  flat !== undefined && flat !== null && flat !== '' ? flat : (nested ?? null);

/** Flat audit values win over the nested `audit` object. */
export function auditOf(r: AuditedRecord): AuditView {
  const created = { at: pick(r.created_at, r.audit?.created?.at), by: pick(r.created_by_name, r.audit?.created?.name) };
  const updatedAt = pick(r.updated_at, r.audit?.updated?.at);
  const updated = { at: updatedAt, by: pick(r.updated_by_name, r.audit?.updated?.name) };
  const deletedAt = pick(r.deleted_at, r.audit?.deleted?.at);
  const sameAsCreated =
    !updatedAt || (created.at !== null && new Date(updatedAt).getTime() === new Date(created.at).getTime());
  return {
    created,
    updated: sameAsCreated ? null : updated,
    deleted: deletedAt ? { at: deletedAt, by: pick(r.deleted_by_name, r.audit?.deleted?.name) } : null,
  };
}

export function isSoftDeleted(r: AuditedRecord): boolean {
  return auditOf(r).deleted !== null;
}
