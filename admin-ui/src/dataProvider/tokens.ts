import type { StoredTokens } from '../types';

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
