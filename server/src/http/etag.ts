import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { PreconditionFailedError } from './errors.js';

/** Weak ETag from the row's id and updated_at (changes on every write). */
export function etagOf(row: { id: string; updated_at: Date | string | null | undefined }): string {
  const at = row.updated_at instanceof Date ? row.updated_at.toISOString() : String(row.updated_at ?? '');
  const digest = createHash('sha1').update(`${row.id}|${at}`).digest('base64url').slice(0, 22);
  return `W/"${digest}"`;
}

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}

/**
 * Honours If-Match on writes: absent → proceed (older clients keep working); `*` or a matching tag
 * (weak comparison) → proceed; anything else → 412.
 */
export function checkIfMatch(req: Request, current: { id: string; updated_at: Date | string | null | undefined }): void {
  const header = req.headers['if-match'];
  if (header === undefined || header.trim() === '') return;
  if (header.trim() === '*') return;
  const tag = opaque(etagOf(current));
  const matches = header.split(',').some((t) => opaque(t) === tag);
  if (!matches) throw new PreconditionFailedError();
}

export function setEtag(res: Response, row: { id: string; updated_at: Date | string | null | undefined }): void {
  res.setHeader('ETag', etagOf(row));
}
