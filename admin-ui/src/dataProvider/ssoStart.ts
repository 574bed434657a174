/**
 * Where the browser goes to sign in at a provider: a navigation, not a call (the provider's pages follow, so it is no
 * data provider method). Relative, as the API client's calls are: the API server serves the console.
 * `returnTo` is the console path to open once signed in.
 */
export function ssoStartUrl(provider: string, returnTo?: string | null): string {
  const query = returnTo ? `?${new URLSearchParams({ return_to: returnTo })}` : '';
  return `/api/auth/sso/${encodeURIComponent(provider)}/start${query}`;
}
