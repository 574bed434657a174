// A fetch for the proxy tests: trusts only the test's own certificate, and connects from a loopback address of the
// test's choosing (127.0.0.2, 127.0.0.3, ...), so the address a replica logs tells which client it believed.
import http from 'node:http';
import https from 'node:https';

export interface ClientOptions {
  ca: Buffer;
  /** The address the connection comes from. */
  from: string;
}

/** `fetch` over node's http/https (the built-in fetch takes no CA of its own), answering a standard Response. */
export function clientFetch({ ca, from }: ClientOptions): typeof fetch {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, localAddress: from }),
    'https:': new https.Agent({ keepAlive: true, localAddress: from, ca }),
  };
  return (input: string | URL | Request, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const transport = url.protocol === 'https:' ? https : http;
      const headers = new Headers(init.headers);
      const body = init.body;
      if (body !== undefined && body !== null && typeof body !== 'string')
        throw new Error('clientFetch sends string bodies only');
      if (body) headers.set('content-length', String(Buffer.byteLength(body)));
      const req = transport.request(
        url,
        {
          method: init.method ?? 'GET',
          headers: Object.fromEntries(headers),
          agent: agents[url.protocol as keyof typeof agents],
          signal: init.signal ?? undefined,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const out = new Headers();
            for (const [name, value] of Object.entries(res.headers))
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, v);
            const status = res.statusCode ?? 0;
            const empty = status === 204 || status === 304 || (status >= 100 && status < 200);
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: out }));
          });
        },
      );
      req.on('error', reject);
      req.end(body ?? undefined);
    });
}
