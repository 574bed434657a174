// Which of the docs' samples samples.test.ts runs last, in this order (they remove or change what other samples
// read), and which it cannot run on a fresh demo with only the address and tokens put in, with the reason.
export const RUN_LAST: string[] = [
  // A unit membership goes before its cluster membership (leaving a cluster leaves its units), and each is added again.
  'updateBusinessUnitUser',
  'removeBusinessUnitUser',
  'updateClusterUser',
  'removeClusterUser',
  'addClusterUser',
  'addBusinessUnitUser',
  // somchai's demo grant is removed, then granted again.
  'removeUserGrant',
  'addUserGrant',
  // Deleted and restored, after everything that reads them.
  'deleteBusinessUnit',
  'restoreBusinessUnit',
  'deleteCluster',
  'restoreCluster',
  'deletePrintTemplateMapping',
  // The admin's own account last: a new password, then signing out.
  'changeMyPassword',
  'logoutSso',
  'logout',
];

const SSO = 'needs an identity provider, and a fresh demo configures none (OIDC_PROVIDERS)';
const SERVICE_ACCOUNT =
  'the example’s service account is not in the demo: its id is the one createServiceAccount answered';
const WEBHOOK = 'the example’s webhook is not in the demo: its id is the one createWebhook answered';
export const NOT_RUNNABLE: Record<string, string> = {
  getServiceAccount: SERVICE_ACCOUNT,
  updateServiceAccount: SERVICE_ACCOUNT,
  listApiTokens: SERVICE_ACCOUNT,
  createApiToken: SERVICE_ACCOUNT,
  revokeApiToken: `${SERVICE_ACCOUNT}; the token’s id is the one createApiToken answered`,
  createWebhook:
    'the example’s receiver is a reserved .example name that resolves nowhere; a partner puts in their own',
  getWebhook: WEBHOOK,
  updateWebhook: WEBHOOK,
  deleteWebhook: WEBHOOK,
  rotateWebhookSecret: WEBHOOK,
  listWebhookDeliveries: WEBHOOK,
  redeliverWebhookDelivery: `${WEBHOOK}; the delivery’s id is one listWebhookDeliveries answered`,
  startSsoSignIn: SSO,
  completeSsoSignIn: SSO,
  exchangeSsoCode: `${SSO}; the code comes from a completed sign-in`,
  createSsoGroupMapping: SSO,
  deleteSsoGroupMapping: SSO,
  setUserSsoOnly: `${SSO}; the account must have signed in with one`,
  updateWidget: 'a widget is the caller’s own: the id is the one createWidget answered',
  deleteWidget: 'a widget is the caller’s own: the id is the one createWidget answered',
  revokeMySession: 'a session is the caller’s own: the id is one listMySessions answers',
  revokeUserSession: 'a session is made by a sign-in: the id is one listUserSessions answers',
  revokeSuperAdmin: 'the demo’s only super admin is the admin, who cannot revoke their own role',
  revertAuditEvent: 'an audit event’s id is made by the write it records; a fresh demo has none',
  getStoredFile: 'a presigned link is one an upload or a read answered; the example’s signature is not valid',
};
