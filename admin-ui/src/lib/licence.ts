/** True when a capped resource has reached its licence limit; null/undefined max means unlimited. */
export function isAtLicenceLimit(count: number, max: number | null | undefined): boolean {
  if (max === null || max === undefined) return false;
  return count >= max;
}

/**
 * The message for a BU create blocked by the cluster's licence cap: word for word the server's own refusal (409), so
 * the user reads the same sentence whether the console or the server stopped the create.
 */
export function buLicenceLimitMessage(count: number, max: number): string {
  return `Cannot create business unit: cluster has reached its license limit (${count}/${max})`;
}

/** Returns the blocking message, or null when the BU create may proceed. */
export function checkBuLicence(count: number, max: number | null | undefined): string | null {
  return max !== null && max !== undefined && isAtLicenceLimit(count, max) ? buLicenceLimitMessage(count, max) : null;
}

/** "count/max" when a cap is set, else just the count. */
export function formatCountOfMax(count: number | null | undefined, max: number | null | undefined): string {
  const c = count ?? 0;
  return max === null || max === undefined ? String(c) : `${c}/${max}`;
}
