import type { StoredTokens } from '../types';
import { isSessionEndReason, type SessionEndReason } from './errors';

/** Where the session's tokens live between page loads. */
const ACCESS = 'auth.access_token';
const REFRESH = 'auth.refresh_token';
/** Set while the session began with single sign-on: signing out then also ends the provider's session. */
const SSO = 'auth.sso';

function store(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export const tokenStore = {
  get access(): string | null {
    return store()?.getItem(ACCESS) ?? null;
  },
  get refresh(): string | null {
    return store()?.getItem(REFRESH) ?? null;
  },
  /** Whether this session began with single sign-on (a refresh keeps what the sign-in said). */
  get fromSso(): boolean {
    return store()?.getItem(SSO) === '1';
  },
  /** `signedInWith` is given by a sign-in; a refresh leaves it out and so keeps the session's origin. */
  set(pair: StoredTokens, signedInWith?: 'password' | 'sso'): void {
    store()?.setItem(ACCESS, pair.access_token);
    store()?.setItem(REFRESH, pair.refresh_token);
    if (signedInWith === 'sso') store()?.setItem(SSO, '1');
    else if (signedInWith === 'password') store()?.removeItem(SSO);
  },
  clear(): void {
    store()?.removeItem(ACCESS);
    store()?.removeItem(REFRESH);
    store()?.removeItem(SSO);
  },
};

const END_REASON = 'auth.end_reason';

function tabStore(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

/**
 * Why this tab's session ended when the server ended it (a deactivated account, a revoked session). Kept per tab, so
 * the login page can say why it is shown, until the next sign-in.
 */
export const endReasonStore = {
  get(): SessionEndReason | null {
    const value = tabStore()?.getItem(END_REASON) ?? undefined;
    return isSessionEndReason(value) ? value : null;
  },
  set(reason: SessionEndReason): void {
    tabStore()?.setItem(END_REASON, reason);
  },
  clear(): void {
    tabStore()?.removeItem(END_REASON);
  },
};
