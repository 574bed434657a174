import type { RequestHandler } from 'express';

/** encodeURIComponent leaves `! ' ( ) *` as they are; the contract validator treats them as reserved. */
const strictEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Re-encodes the query string one canonical way before the contract validator reads it raw. Clients encode a space
 * as `+` (URLSearchParams, HTML forms, most HTTP libraries) or `%20`, and may leave `* ' ( ) !` bare; all of them
 * mean the same value, so all are accepted. Decoding follows the form rules (`+` is a space).
 */
export const canonicalQuery: RequestHandler = (req, _res, next) => {
  const at = req.url.indexOf('?');
  if (at < 0) return next();
  const raw = req.url.slice(at + 1);
  let canonical: string;
  try {
    canonical = [...new URLSearchParams(raw)].map(([k, v]) => `${strictEncode(k)}=${strictEncode(v)}`).join('&');
  } catch {
    return next();
  }
  if (canonical !== raw) {
    const path = req.url.slice(0, at);
    req.url = `${path}?${canonical}`;
    const originalAt = req.originalUrl.indexOf('?');
    req.originalUrl = `${originalAt < 0 ? req.originalUrl : req.originalUrl.slice(0, originalAt)}?${canonical}`;
  }
  next();
};
