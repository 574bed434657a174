import * as oidc from 'openid-client';
import { isLoopbackUrl, type OidcProviderConfig } from '../../config-oidc.js';

/** A provider's discovery document and keys are fetched once an hour (openid-client refetches the JWKS on a new key id). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Seconds to wait for a provider before telling the user it cannot be reached. */
const PROVIDER_TIMEOUT_SECONDS = 5;

/** The provider could not be reached, or answered its discovery with something that is not one. */
export class ProviderUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The identity provider cannot be reached', { cause });
    this.name = 'ProviderUnavailableError';
  }
}

/** What a finished authorization code grant tells about the user. */
export interface VerifiedSignIn {
  claims: oidc.IDToken;
  idToken: string | null;
}

/** The cause's own words: an error's name and message (a fetch failure's code is in them), else its text. */
function causeText(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return typeof cause === 'string' ? cause : '';
}

/** Whether an error of openid-client is the network's (or a timeout) rather than the provider's answer. */
function isUnreachable(err: unknown): boolean {
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) return false;
  const text = `${(err as Error)?.name} ${(err as Error)?.message} ${causeText((err as { cause?: unknown })?.cause)}`;
  return (
    /fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|TimeoutError|aborted|socket|network/i.test(text) ||
    (err as Error)?.name === 'TypeError'
  );
}

/**
 * The configured OpenID Connect providers, through openid-client: discovery with caching, the authorization URL
 * (PKCE S256, state, nonce), the code grant with every ID token check (signature against the JWKS, issuer, audience,
 * expiry, nonce) and the end-session URL.
 */
export function identityProviders({ configs }: { configs: OidcProviderConfig[] }) {
  const discovered = new Map<string, { config: oidc.Configuration; at: number }>();

  async function configurationOf(p: OidcProviderConfig): Promise<oidc.Configuration> {
    const cached = discovered.get(p.id);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const issuer = new URL(p.issuer);
    const metadata: Partial<oidc.ClientMetadata> = { [oidc.clockTolerance]: p.clockToleranceSeconds };
    if (p.clientSecret) metadata.client_secret = p.clientSecret;
    let config: oidc.Configuration;
    try {
      config = await oidc.discovery(
        issuer,
        p.clientId,
        metadata,
        p.clientSecret ? oidc.ClientSecretPost(p.clientSecret) : oidc.None(),
        {
          // A provider on this machine (development, tests) may speak plain http; any other must use https.
          execute: isLoopbackUrl(issuer) ? [oidc.allowInsecureRequests] : [],
          timeout: PROVIDER_TIMEOUT_SECONDS,
        },
      );
    } catch (err) {
      throw new ProviderUnavailableError(err);
    }
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    // ID tokens are checked against the provider's keys even though they come straight from its token endpoint.
    oidc.enableNonRepudiationChecks(config);
    discovered.set(p.id, { config, at: Date.now() });
    return config;
  }

  return {
    list: () => configs,
    find: (id: string) => configs.find((p) => p.id === id),

    /** Where to send the browser: the provider's authorization endpoint with this sign-in's PKCE challenge, state and nonce. */
    async authorizationUrl(
      p: OidcProviderConfig,
      checks: { redirectUri: string; codeVerifier: string; state: string; nonce: string },
    ): Promise<string> {
      const config = await configurationOf(p);
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: checks.redirectUri,
        scope: p.scopes.join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        state: checks.state,
        nonce: checks.nonce,
      });
      return url.href;
    },

    /**
     * Exchanges the code of the provider's redirect (`callbackUrl`: the registered redirect URI with the query the
     * browser brought) and answers the verified ID token's claims. Throws ProviderUnavailableError when the provider
     * cannot be reached, and openid-client's errors for anything it refuses.
     */
    async verify(
      p: OidcProviderConfig,
      callbackUrl: URL,
      checks: { codeVerifier: string; state: string; nonce: string },
    ): Promise<VerifiedSignIn> {
      const config = await configurationOf(p);
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        return { claims: tokens.claims()!, idToken: tokens.id_token ?? null };
      } catch (err) {
        if (isUnreachable(err)) throw new ProviderUnavailableError(err);
        throw err;
      }
    },

    /** The provider's end-session URL for a session's ID token, or null when it has none (or cannot be reached). */
    async endSessionUrl(
      p: OidcProviderConfig,
      idToken: string | null,
      postLogoutRedirectUri: string,
    ): Promise<string | null> {
      try {
        const config = await configurationOf(p);
        if (!config.serverMetadata().end_session_endpoint) return null;
        const params: Record<string, string> = {
          post_logout_redirect_uri: postLogoutRedirectUri,
          client_id: p.clientId,
        };
        if (idToken) params.id_token_hint = idToken;
        return oidc.buildEndSessionUrl(config, params).href;
      } catch {
        return null;
      }
    },
  };
}

export type IdentityProviders = ReturnType<typeof identityProviders>;
