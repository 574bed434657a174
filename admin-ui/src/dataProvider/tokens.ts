import type { StoredTokens } from '../types';
import { isSessionEndReason, type SessionEndReason } from './errors';

/** Where the session's tokens live between page loads. */
const ACCESS = 'auth.access_token';
const REFRESH = 'auth.refresh_token';

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
  set(pair: StoredTokens): void {
    store()?.setItem(ACCESS, pair.access_token);
    store()?.setItem(REFRESH, pair.refresh_token);
  },
  clear(): void {
    store()?.removeItem(ACCESS);
    store()?.removeItem(REFRESH);
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
