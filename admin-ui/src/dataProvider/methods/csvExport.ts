import type { GetListParams } from 'react-admin';
import type { AuditEventQuery, BusinessUnitMemberExportQuery, ClusterMemberExportQuery } from '../../types';
import { formatDate } from '../../lib/audit';
import type { ApiClient } from '../api';
import { userListQuery } from '../crud';
import { toHttpError } from '../errors';
import { toListQuery } from '../query';
import { auditQuery } from './users';

/** The lists the server exports as CSV. */
export type ExportResource = ExportRequest['resource'];

/** One page of the list (as the screen shows it); without it, the file holds every matching row. */
export type ExportPage = GetListParams['pagination'];

type WithoutPage<Q> = Omit<Q, 'page' | 'perpage'>;

/** What a list screen asks to export: the same filter and sort it lists with, so the file matches the screen. */
export type ExportRequest =
  | {
      resource: 'clusters' | 'business-units' | 'users' | 'print-template-mappings';
      filter: Record<string, unknown>;
      sort: GetListParams['sort'];
    }
  | { resource: 'audit-events'; filter: WithoutPage<AuditEventQuery> }
  | { resource: 'cluster-members'; filter: WithoutPage<ClusterMemberExportQuery> }
  | { resource: 'business-unit-members'; filter: WithoutPage<BusinessUnitMemberExportQuery> };

export interface ExportProgress {
  bytes: number;
  /** Data rows so far: the line breaks received, less the header's. */
  rows: number;
}

export interface ExportOptions {
  page?: ExportPage;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
}

export interface CsvFile {
  filename: string;
  blob: Blob;
}

/** Without `page`/`perpage` the server sends every matching row. */
const withPage = <F extends object>(filters: F, page: ExportPage | undefined) =>
  page ? { ...filters, page: page.page, perpage: page.perPage } : filters;

/** A list call's query (which always pages) as an export's: the list's page only when one was asked for. */
function paged<Q extends { page?: number; perpage?: number }>(query: Q, page: ExportPage | undefined) {
  const { page: _page, perpage: _perpage, ...filters } = query;
  return withPage(filters, page);
}

/** `attachment; filename="clusters-2026-11-24.csv"` (or its RFC 5987 `filename*=UTF-8''…` form) → the name. */
export function filenameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // A malformed encoding: fall back to the plain name below.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  // Only a bare name: a path in the header must not choose where the browser saves.
  return name ? name.split(/[/\\]/).pop() || undefined : undefined;
}

/**
 * The name the browser saves: the server's base name (`clusters`, `audit-log`) dated with the operator's own day. The
 * server dates its name in UTC for callers without a clock of their own, so just after midnight in Bangkok it would
 * still say yesterday.
 */
export function localFileName(serverName: string | undefined, fallbackBase: string, now: Date): string {
  const base = serverName?.replace(/(-\d{4}-\d{2}-\d{2})?\.csv$/i, '') || fallbackBase;
  return `${base}-${formatDate(now)}.csv`;
}

const LINE_FEED = 10;

/** Reads the body as it arrives, reporting bytes and rows, so a long export shows it is moving. */
async function readCsv(body: ReadableStream<Uint8Array>, options: ExportOptions): Promise<Blob> {
  const reader = body.getReader();
  const { signal, onProgress } = options;
  // The fetch's own stream errors on abort; this also stops a body that does not watch the signal.
  const stop = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', stop, { once: true });
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  let lineFeeds = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      chunks.push(new Uint8Array(value));
      bytes += value.byteLength;
      for (let i = value.indexOf(LINE_FEED); i !== -1; i = value.indexOf(LINE_FEED, i + 1)) lineFeeds += 1;
      onProgress?.({ bytes, rows: Math.max(0, lineFeeds - 1) });
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  return new Blob(chunks, { type: 'text/csv;charset=utf-8' });
}

/** The export operation of the list, called with the query its list call would send. */
function send(c: ApiClient, request: ExportRequest, options: ExportOptions) {
  const init = { parseAs: 'stream', signal: options.signal } as const;
  const { page } = options;
  switch (request.resource) {
    case 'clusters':
      return c.GET('/api-system/clusters/export', { ...init, params: { query: paged(toListQuery(request), page) } });
    case 'business-units':
      return c.GET('/api-system/business-units/export', {
        ...init,
        params: { query: paged(toListQuery(request), page) },
      });
    case 'users':
      return c.GET('/api-system/users/export', {
        ...init,
        params: { query: paged(userListQuery(toListQuery(request), request.filter), page) },
      });
    case 'print-template-mappings':
      return c.GET('/api-system/print-template-mappings/export', {
        ...init,
        params: { query: paged(toListQuery(request), page) },
      });
    case 'audit-events':
      return c.GET('/api-system/audit-events/export', {
        ...init,
        params: { query: paged(auditQuery(request.filter), page) },
      });
    case 'cluster-members':
      return c.GET('/api-system/user/clusters/export', { ...init, params: { query: withPage(request.filter, page) } });
    case 'business-unit-members':
      return c.GET('/api-system/user/business-units/export', {
        ...init,
        params: { query: withPage(request.filter, page) },
      });
  }
}

/**
 * Downloads the list as the server writes it (UTF-8 with BOM): one page with `page`, else every matching row.
 * Rejects with the problem's HttpError, or with the AbortError of `signal`.
 */
export async function exportCsv(c: ApiClient, request: ExportRequest, options: ExportOptions = {}): Promise<CsvFile> {
  const { error, response } = await send(c, request, options);
  // The body is read here, as it arrives, rather than parsed by the client.
  if (!response.ok || !response.body) throw toHttpError(response.status, error);
  const blob = await readCsv(response.body, options);
  const filename = localFileName(filenameOf(response.headers.get('Content-Disposition')), request.resource, new Date());
  return { filename, blob };
}
