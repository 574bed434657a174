/**
 * Leaves the console for another site (an identity provider's sign-in pages): a full navigation, not a route change.
 * One function, so that tests can see where the browser would go (jsdom cannot navigate).
 */
export function leaveConsole(url: string): void {
  window.location.assign(url);
}
