import { api } from './api';

/**
 * Where the browser goes to sign in at a provider: a navigation, not a call (the provider's pages follow, so it is no
 * data provider method). From the API client's base URL, as its calls and uploads are: the API server serves the console.
 * `returnTo` is the console path to open once signed in.
 */
export function ssoStartUrl(provider: string, returnTo?: string | null): string {
  const query = returnTo ? `?${new URLSearchParams({ return_to: returnTo })}` : '';
  return `${api.baseUrl}/api/auth/sso/${encodeURIComponent(provider)}/start${query}`;
}
