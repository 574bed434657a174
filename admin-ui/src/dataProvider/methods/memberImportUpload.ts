import type { MembershipImportMode, MembershipImportResult, Schemas } from '../../types';
import type { Api } from '../api';
import { PROBLEM, problemNameOf, toHttpError } from '../errors';
import { unwrap } from '../outcome';
import { tokenStore } from '../tokens';

const IMPORT_PATH = '/api-system/memberships/import';

/** What an import sends besides the file. */
export interface MemberImportOptions {
  /** `true` plans only: the server answers what each row would do and writes nothing. */
  dryRun: boolean;
  mode: MembershipImportMode;
  /** Bytes of the request sent so far; `total` is 0 while the browser does not know it. */
  onProgress?: (loaded: number, total: number) => void;
  /** Aborts the upload (the promise rejects with an AbortError). */
  signal?: AbortSignal;
}

/** The one form field the contract's upload schema names (the compiler holds it to the schema). */
export const IMPORT_FILE_FIELD: keyof Schemas['MembershipImportUpload'] = 'file';

/** The file alone, under that field. */
function formOf(file: Blob): FormData {
  const form = new FormData();
  form.append(IMPORT_FILE_FIELD, file);
  return form;
}

interface XhrAnswer {
  status: number;
  body: unknown;
}

const parse = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    // A proxy's page rather than the API's JSON: toHttpError shows it as it came.
    return text;
  }
};

/** One XMLHttpRequest, because fetch cannot report how much of a request body has been sent. */
function send(url: string, file: Blob, options: MemberImportOptions): Promise<XhrAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    const token = tokenStore.access;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json, application/problem+json');
    xhr.upload.onprogress = (e) => options.onProgress?.(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => resolve({ status: xhr.status, body: parse(xhr.responseText) });
    // Like fetch: a network failure is a TypeError, which the screens show as "server unreachable".
    xhr.onerror = () => reject(new TypeError('Failed to fetch'));
    xhr.onabort = () => reject(new DOMException('The import was cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(formOf(file));
  });
}

const problemOf = (body: unknown) =>
  body && typeof body === 'object' ? problemNameOf((body as { type?: unknown }).type) : undefined;

/**
 * Uploads the CSV and answers the plan (and, unless a dry run, whether it was written). A 400 names the line the file
 * cannot be read at; 413 is a file over 5 MB.
 */
export async function importMemberships(
  api: Api,
  file: Blob,
  options: MemberImportOptions,
): Promise<MembershipImportResult> {
  const c = api.client;
  const query = { dry_run: options.dryRun, mode: options.mode };
  const url = `${api.baseUrl}${IMPORT_PATH}?dry_run=${String(query.dry_run)}&mode=${query.mode}`;
  const first = await send(url, file, options);
  const mustChangePassword = first.status === 403 && problemOf(first.body) === PROBLEM.passwordChangeRequired;
  if (first.status !== 401 && !mustChangePassword) {
    if (first.status >= 200 && first.status < 300) return first.body as MembershipImportResult;
    throw toHttpError(first.status, first.body);
  }
  // An expired session, a session the server ended, or a password to change first: the typed client's fetch
  // already knows how to refresh, ask to sign in again in place, or give up, so the file goes once more through it
  // (without progress) rather than this module copying those rules.
  options.onProgress?.(0, 0);
  return unwrap(
    await c.POST(IMPORT_PATH, {
      params: { query },
      // The generated types render `format: binary` as a string: the body is a placeholder, and the serializer
      // sends the Blob itself.
      body: { file: '' },
      bodySerializer: () => formOf(file),
      signal: options.signal,
    }),
  );
}
