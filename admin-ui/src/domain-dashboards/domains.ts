/** The six domain dashboards and where the menu links them. */
export const DOMAIN_DASHBOARDS = ['main', 'pr', 'po', 'grn', 'inventory', 'sr'] as const;
export type DomainDashboard = (typeof DOMAIN_DASHBOARDS)[number];
export const domainDashboardPath = (domain: DomainDashboard) => `/dashboards/${domain}`;
