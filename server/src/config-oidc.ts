/** One OpenID Connect identity provider operators may sign in with (OIDC_PROVIDERS). */
export interface OidcProviderConfig {
  /** In URLs (`/api/auth/sso/<id>/callback`) and on linked accounts; never change it once accounts are linked. */
  id: string;
  displayName: string;
  issuer: string;
  clientId: string;
  /** Null for a public client (PKCE only). */
  clientSecret: string | null;
  scopes: string[];
  /** Lower-case email domains allowed to sign in; empty = any. */
  allowedEmailDomains: string[];
  /** Whether a first sign-in with no matching account creates one. */
  jitProvisioning: boolean;
  /**
   * Whether a first sign-in whose verified email is an existing account's links to that account (off unless set):
   * it trusts the provider with the account. Accounts holding a key on all clusters, and super admins, are never
   * linked this way.
   */
  linkExistingAccounts: boolean;
  /**
   * Whether an email is taken as verified when the provider sends no `email_verified` claim at all (Entra ID sends
   * none; its emails are the tenant's). An explicit `email_verified: false` is never trusted.
   */
  assumeEmailVerified: boolean;
  /** The ID token claim whose values the group mappings match. */
  groupsClaim: string;
  /** Sessions begun with this provider must sign in there again after this many hours; null = the refresh token's life. */
  reauthHours: number | null;
  /** Seconds of clock difference tolerated on the ID token's timestamps. */
  clockToleranceSeconds: number;
}

const ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
const DOMAIN = /^[a-z0-9.-]+\.[a-z]{2,}$/;

const EXAMPLE =
  'OIDC_PROVIDERS must be a JSON array like [{"id":"entra","display_name":"Microsoft Entra ID","issuer":"https://login.microsoftonline.com/<tenant>/v2.0","client_id":"…","client_secret":"…"}]';

/** A loopback issuer (a provider on this machine, for development and tests) may use plain http. */
export function isLoopbackUrl(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** Reads OIDC_PROVIDERS; each problem is pushed to `problems` with the entry it is in. */
export function oidcProvidersOf(raw: string | undefined, problems: string[]): OidcProviderConfig[] {
  if (raw === undefined) return [];
  let entries: unknown;
  try {
    entries = JSON.parse(raw);
  } catch {
    problems.push(`${EXAMPLE}: it is not JSON`);
    return [];
  }
  if (!Array.isArray(entries)) {
    problems.push(EXAMPLE);
    return [];
  }
  const out: OidcProviderConfig[] = [];
  entries.forEach((entry: Record<string, unknown>, index) => {
    const where = `OIDC_PROVIDERS[${index}]`;
    const text = (key: string) =>
      typeof entry?.[key] === 'string' && entry[key].trim() !== '' ? entry[key].trim() : undefined;
    const id = text('id');
    if (!id || !ID.test(id))
      return problems.push(`${where}.id must be lower-case letters, digits and hyphens (at most 40), like "entra"`);
    if (out.some((p) => p.id === id)) return problems.push(`${where}.id "${id}" is used twice`);
    const issuer = text('issuer');
    let issuerUrl: URL | null = null;
    try {
      issuerUrl = issuer ? new URL(issuer) : null;
    } catch {
      /* reported below */
    }
    if (
      !issuerUrl ||
      (issuerUrl.protocol !== 'https:' && !(issuerUrl.protocol === 'http:' && isLoopbackUrl(issuerUrl)))
    ) {
      return problems.push(
        `${where}.issuer must be the provider's https issuer URL (the one its /.well-known/openid-configuration is under)`,
      );
    }
    const clientId = text('client_id');
    if (!clientId) return problems.push(`${where}.client_id is required (the application's id at the provider)`);
    const scopes = Array.isArray(entry.scopes)
      ? entry.scopes.filter((s): s is string => typeof s === 'string')
      : ['openid', 'email', 'profile'];
    if (!scopes.includes('openid')) scopes.unshift('openid');
    const domains = Array.isArray(entry.allowed_email_domains)
      ? entry.allowed_email_domains.map((d) => String(d).trim().toLowerCase())
      : [];
    const badDomain = domains.find((d) => !DOMAIN.test(d));
    if (badDomain !== undefined)
      return problems.push(
        `${where}.allowed_email_domains must list domains like "andaman-hotels.example" ("${badDomain}" is not one)`,
      );
    const reauth = entry.reauth_hours;
    if (reauth !== undefined && reauth !== null && !(typeof reauth === 'number' && reauth > 0 && reauth <= 24 * 365)) {
      return problems.push(`${where}.reauth_hours must be a positive number of hours`);
    }
    const tolerance = entry.clock_tolerance_seconds;
    if (tolerance !== undefined && !(typeof tolerance === 'number' && tolerance >= 0 && tolerance <= 600)) {
      return problems.push(`${where}.clock_tolerance_seconds must be between 0 and 600`);
    }
    out.push({
      id,
      displayName: text('display_name') ?? id,
      issuer: issuer!,
      clientId,
      clientSecret: text('client_secret') ?? null,
      scopes,
      allowedEmailDomains: domains,
      jitProvisioning: entry.jit_provisioning === true,
      linkExistingAccounts: entry.link_existing_accounts === true,
      assumeEmailVerified: entry.assume_email_verified === true,
      groupsClaim: text('groups_claim') ?? 'groups',
      reauthHours: typeof reauth === 'number' ? reauth : null,
      clockToleranceSeconds: typeof tolerance === 'number' ? tolerance : 30,
    });
  });
  return out;
}
