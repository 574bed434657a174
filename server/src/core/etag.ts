import { createHash } from 'node:crypto';
import { PreconditionFailedError } from './errors.js';

export interface Versioned {
  id: string;
  updated_at: Date | string | null | undefined;
}

/**
 * Called with the current row inside the write transaction; throws `PreconditionFailedError` when the version the
 * client names (its If-Match) is stale.
 */
export type FreshnessCheck = (current: Versioned) => void;

/** Accepts whatever version is current: for writes that name no version, such as a bulk action. */
export const ANY_VERSION: FreshnessCheck = () => undefined;

/** Weak ETag from the row's id and updated_at (changes on every write). */
export function etagOf(row: Versioned): string {
  const at = row.updated_at instanceof Date ? row.updated_at.toISOString() : String(row.updated_at ?? '');
  const digest = createHash('sha1').update(`${row.id}|${at}`).digest('base64url').slice(0, 22);
  return `W/"${digest}"`;
}

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}

/**
 * Honours If-Match on writes: absent → proceed (older clients keep working); `*` or a matching tag
 * (weak comparison) → proceed; anything else → `PreconditionFailedError`.
 */
export function ifMatch(header: string | undefined): FreshnessCheck {
  return (current) => {
    if (header === undefined || header.trim() === '' || header.trim() === '*') return;
    const tag = opaque(etagOf(current));
    if (!header.split(',').some((t) => opaque(t) === tag)) throw new PreconditionFailedError();
  };
}
