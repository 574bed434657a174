// A real OpenID Connect provider (oidc-provider) on a loopback port, with its own signing key: the identity provider
// of the single sign-on tests. Its sign-in page is a plain form naming the account; consent is implied. Hooks let a
// test tamper with what it sends (an ID token's claims or its signing key, the published keys), as a broken or
// malicious provider would.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, decodeJwt, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export interface IdpAccount {
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
  groups?: string[];
  /** How the provider says it authenticated the account (the ID token's `amr`, RFC 8176); absent: no `amr`. */
  amr?: string[];
}

/** How a test makes the provider misbehave; each hook applies until it is cleared. */
export interface IdpTampering {
  /** Rewrites the ID token of the next token responses (re-signed with `key`, or the provider's own key). */
  idToken?: (claims: JWTPayload) => { claims: JWTPayload; key?: 'foreign' };
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IdpAccount>;
  tamper: IdpTampering;
  /** The OIDC_PROVIDERS entry of this provider for the product. */
  providerConfig(extra?: Record<string, unknown>): Record<string, unknown>;
  /**
   * Registers the product's addresses (its callback and the page after sign-out are registered under each) and
   * starts answering: the product's port is known only once it runs, and it needs the issuer to start.
   */
  serve(redirectBases: string[]): void;
  close(): Promise<void>;
}

const FORM = (
  uid: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Test identity provider</h1>
<form method="post" action="/interaction/${uid}/login">
<label>Account <input name="login" autocomplete="username" autofocus></label>
<button type="submit">Sign in at the provider</button>
</form></main></body></html>`;

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts the provider's listener (its issuer is known at once); it answers once `serve` names the product's
 * addresses. `accounts` are the people who can sign in, by account id (the ID token's `sub`).
 */
export async function startTestIdp(
  accounts: Record<string, IdpAccount>,
  opts: { providerIds?: string[] } = {},
): Promise<TestIdp> {
  // The product may name this provider more than once (with other settings); each id has its own callback.
  const providerIds = opts.providerIds ?? ['test-idp'];
  const providerId = providerIds[0]!;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'platform-admin';
  const clientSecret = randomUUID();
  const people = new Map(Object.entries(accounts));
  const tamper: IdpTampering = {};

  let oidc: ReturnType<Provider['callback']> | null = null;
  let provider: Provider | null = null;

  const serve = (redirectBases: string[]) => {
    provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectBases.flatMap((base) =>
            providerIds.map((id) => `${base}/api/auth/sso/${id}/callback`),
          ),
          post_logout_redirect_uris: redirectBases.map((base) => `${base}/`),
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: [randomUUID()] },
      claims: {
        // `amr`: how the sign-in was authenticated (from the login below), in every ID token that has it.
        openid: ['sub', 'amr'],
        email: ['email', 'email_verified'],
        profile: ['given_name', 'family_name'],
        groups: ['groups'],
      },
      scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'],
      // The claims go in the ID token, which is what the product reads.
      conformIdTokenClaims: false,
      features: {
        devInteractions: { enabled: false },
        // Its own page, with nothing fetched from elsewhere (the default one loads a web font).
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
            ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign out</title></head><body><main>
<h1>Sign out of the test identity provider?</h1>${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button></main></body></html>`;
          },
        },
      },
      pkce: { required: () => true },
      ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Grant: 3600, Session: 3600, Interaction: 600 },
      interactions: {
        url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
      },
      findAccount: async (_ctx: KoaContextWithOIDC, sub: string) => {
        const person = people.get(sub);
        if (!person) return undefined;
        // `amr` is the sign-in's, not the account's: it goes in the ID token from the login below.
        const { amr: _amr, ...claims } = person;
        return { accountId: sub, claims: async () => ({ sub, ...claims }) };
      },
      // Consent is implied: every client of this provider may have every scope and claim.
      loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
        const accountId = ctx.oidc.session?.accountId;
        if (!accountId || !ctx.oidc.client) return undefined;
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
        grant.addOIDCScope('openid email profile groups');
        grant.addOIDCClaims(['email', 'email_verified', 'given_name', 'family_name', 'groups']);
        await grant.save();
        return grant;
      },
    });

    // A tampered ID token: the claims a test chose, signed with the provider's key or a key it never published.
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path === '/token' && tamper.idToken && body?.id_token) {
        const { claims, key } = tamper.idToken(decodeJwt(body.id_token));
        const signer = key === 'foreign' ? foreign.privateKey : privateKey;
        ctx.body = {
          ...body,
          id_token: await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(signer),
        };
      }
    });

    oidc = provider.callback();
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // A browser asks every page's host for an icon; the provider has none.
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    const match = /^\/interaction\/([^/?]+)(\/login)?/.exec(req.url ?? '');
    if (!oidc || !provider) return void res.writeHead(503).end();
    if (!match) return void oidc(req, res);
    const idp = provider;
    void (async () => {
      try {
        const uid = match[1]!;
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FORM(uid));
          return;
        }
        const login = (await formBody(req)).get('login') ?? '';
        if (!people.has(login)) {
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(`${FORM(uid)}<p role="alert">Unknown account</p>`);
          return;
        }
        const amr = people.get(login)!.amr;
        await idp.interactionFinished(
          req,
          res,
          { login: { accountId: login, ...(amr ? { amr } : {}) } },
          { mergeWithLastSubmission: false },
        );
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      }
    })();
  });

  return {
    issuer,
    clientId,
    clientSecret,
    accounts: people,
    tamper,
    serve,
    providerConfig: (extra = {}) => ({
      id: providerId,
      display_name: 'Test IdP',
      issuer,
      client_id: clientId,
      client_secret: clientSecret,
      scopes: ['openid', 'email', 'profile', 'groups'],
      ...extra,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A cookie jar for following a sign-in's redirects outside a browser. */
class CookieJar {
  private cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  }
}

/**
 * Follows the provider's redirects from `authorizationUrl` through its sign-in form (as `login`) until the browser
 * would be sent back to `callbackPrefix`; answers that callback URL, not yet visited.
 */
export async function signInAtIdp(authorizationUrl: string, login: string, callbackPrefix: string): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(callbackPrefix)) return url;
    const res = await fetch(url, { method, body, redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res);
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    if (res.status === 200 && /\/interaction\/[^/]+$/.test(new URL(url).pathname)) {
      url = `${url}/login`;
      method = 'POST';
      body = new URLSearchParams({ login });
      continue;
    }
    throw new Error(`the provider answered ${res.status} at ${url}: ${(await res.text()).slice(0, 300)}`);
  }
  throw new Error('too many redirects at the provider');
}
