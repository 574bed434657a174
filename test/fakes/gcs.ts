/**
 * A small FAKE of the Google Cloud Storage JSON API, used only by the GCS storage adapter test: real GCS cannot
 * run here. It keeps objects in memory and implements just what the adapter calls (simple multipart upload,
 * object metadata, delete) plus V4 signed-URL downloads, whose signatures it verifies with the service
 * account's public key the way GCS does (canonical request → string to sign → RSA-SHA256).
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeObject {
  bytes: Buffer;
  contentType: string;
}

export interface FakeGcs {
  endpoint: string;
  objects: Map<string, FakeObject>;
  /** Signed downloads that were refused, with the reason (for assertions). */
  refusals: string[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function notFound(res: ServerResponse): void {
  json(res, 404, { error: { code: 404, message: 'No such object', errors: [{ reason: 'notFound' }] } });
}

/** multipart/related: part 1 = JSON metadata, part 2 = the media. */
function parseMultipartRelated(
  contentType: string,
  body: Buffer,
): { metadata: Record<string, unknown>; media: Buffer; mediaType: string } {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new Error('no boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    parts.push(body.subarray(start + delimiter.length, next));
    start = next;
  }
  const split = (part: Buffer) => {
    const sep = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, sep).toString();
    let content = part.subarray(sep + 4);
    if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
    return { headers, content };
  };
  const [meta, media] = parts.map(split);
  if (!meta || !media) throw new Error('expected two parts');
  const mediaType = /content-type:\s*([^\r\n]+)/i.exec(media.headers)?.[1]?.trim() ?? 'application/octet-stream';
  return { metadata: JSON.parse(meta.content.toString()) as Record<string, unknown>, media: media.content, mediaType };
}

const CRC32C_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The checksums GCS reports; the client library compares them with what it sent. */
function checksums(bytes: Buffer): { md5Hash: string; crc32c: string } {
  let crc = 0xffffffff;
  for (const b of bytes) crc = CRC32C_TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return { md5Hash: createHash('md5').update(bytes).digest('base64'), crc32c: out.toString('base64') };
}

function resource(bucket: string, name: string, o: FakeObject) {
  return {
    kind: 'storage#object',
    bucket,
    name,
    id: `${bucket}/${name}/1`,
    generation: '1',
    contentType: o.contentType,
    size: String(o.bytes.length),
    ...checksums(o.bytes),
  };
}

/** Checks a V4 signed URL as GCS would; returns a refusal reason or null when valid. */
function checkV4Signature(
  req: IncomingMessage,
  url: URL,
  publicKey: KeyObject,
  clientEmail: string,
  now: Date,
): string | null {
  const q = url.searchParams;
  if (q.get('X-Goog-Algorithm') !== 'GOOG4-RSA-SHA256') return 'algorithm';
  const credential = q.get('X-Goog-Credential') ?? '';
  const [email, ...scopeParts] = credential.split('/');
  if (email !== clientEmail) return 'credential';
  const date = q.get('X-Goog-Date') ?? '';
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date);
  if (!m) return 'date';
  const signedAt = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  const expiresIn = Number(q.get('X-Goog-Expires'));
  if (!Number.isFinite(expiresIn) || now.getTime() > signedAt + expiresIn * 1000) return 'expired';
  const signedHeaders = q.get('X-Goog-SignedHeaders') ?? '';
  if (signedHeaders !== 'host') return 'signed-headers';
  // The canonical query is the URL's own (already canonically encoded) pairs minus the signature, sorted by key.
  const rawPairs = url.search
    .slice(1)
    .split('&')
    .filter((p) => p && !p.startsWith('X-Goog-Signature='))
    .sort((a, b) => (a.split('=')[0]! < b.split('=')[0]! ? -1 : 1));
  // The host header is signed without the port (as the client library signs it).
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  const canonicalRequest = [
    'GET',
    url.pathname,
    rawPairs.join('&'),
    `host:${host}\n`,
    signedHeaders,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [
    'GOOG4-RSA-SHA256',
    date,
    scopeParts.join('/'),
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const signature = Buffer.from(q.get('X-Goog-Signature') ?? '', 'hex');
  return verify('RSA-SHA256', Buffer.from(stringToSign), publicKey, signature) ? null : 'signature';
}

export async function startFakeGcs(opts: {
  bucket: string;
  publicKeyPem: string;
  clientEmail: string;
  now?: () => Date;
}): Promise<FakeGcs> {
  const objects = new Map<string, FakeObject>();
  const refusals: string[] = [];
  const publicKey = createPublicKey(opts.publicKeyPem);
  const now = opts.now ?? (() => new Date());

  // The handler answers every failure itself (the catch below), so its promise is left to run.
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
      const object = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(url.pathname);
      if (upload && method === 'POST') {
        if (upload[1] !== opts.bucket) return notFound(res);
        const body = await readBody(req);
        const { metadata, media, mediaType } = parseMultipartRelated(String(req.headers['content-type']), body);
        const name = url.searchParams.get('name') ?? String(metadata.name);
        const contentType = typeof metadata.contentType === 'string' ? metadata.contentType : mediaType;
        const o = { bytes: media, contentType };
        objects.set(name, o);
        return json(res, 200, resource(opts.bucket, name, o));
      }
      if (object) {
        const name = decodeURIComponent(object[2]!);
        const o = object[1] === opts.bucket ? objects.get(name) : undefined;
        if (method === 'GET') return o ? json(res, 200, resource(opts.bucket, name, o)) : notFound(res);
        if (method === 'DELETE') {
          if (!o) return notFound(res);
          objects.delete(name);
          res.writeHead(204).end();
          return;
        }
      }
      // Signed download: /<bucket>/<object>?X-Goog-...
      const download = /^\/([^/]+)\/(.+)$/.exec(url.pathname);
      if (download && method === 'GET' && download[1] === opts.bucket) {
        const reason = checkV4Signature(req, url, publicKey, opts.clientEmail, now());
        if (reason) {
          refusals.push(reason);
          res.writeHead(reason === 'expired' ? 400 : 403, { 'Content-Type': 'application/xml' });
          res.end(`<Error><Code>${reason === 'expired' ? 'ExpiredToken' : 'SignatureDoesNotMatch'}</Code></Error>`);
          return;
        }
        const o = objects.get(decodeURIComponent(download[2]!));
        if (!o) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'Content-Type': o.contentType, 'Content-Length': o.bytes.length });
        res.end(o.bytes);
        return;
      }
      json(res, 404, { error: { code: 404, message: `fake GCS does not implement ${method} ${url.pathname}` } });
    } catch (err) {
      json(res, 400, { error: { code: 400, message: String(err) } });
    }
  };
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    objects,
    refusals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
