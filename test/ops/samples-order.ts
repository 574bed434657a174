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
const SECOND_STEP =
  'needs the token of a sign-in whose password was right and a code of the account’s authenticator app, which a fresh demo has not set up';
const PASSKEY = 'needs an authenticator’s signed answer to a challenge the server just issued (a browser’s WebAuthn)';
const TOTP = 'needs the current code of an authenticator app set up with the secret startTotpEnrolment answered';
const STEP_UP = 'needs a second factor used within the last 10 minutes, and the demo admin has none set up';
const OTHER_SESSION = 'the example’s session is not in the demo: its id is one listUserSessions answers';
export const NOT_RUNNABLE: Record<string, string> = {
  verifySecondFactor: SECOND_STEP,
  signInWithPasskey: PASSKEY,
  registerPasskey: PASSKEY,
  confirmTotpEnrolment: TOTP,
  stepUp: TOTP,
  stepUpPasskeyOptions: 'the demo admin has no passkey to confirm it is them with (409)',
  passkeySignInOptions: 'passkeys are bound to the console’s origin: a browser’s Origin header, or WEBAUTHN_RP_ID set',
  passkeyRegistrationOptions:
    'passkeys are bound to the console’s origin: a browser’s Origin header, or WEBAUTHN_RP_ID set',
  removeTotp: 'the demo admin has no authenticator app to remove',
  regenerateRecoveryCodes: 'recovery codes need a confirmed second factor, which the demo admin has not set up',
  removePasskey: 'the example’s passkey is not in the demo: its id is one getMySecondFactors lists',
  resetSecondFactors: `${STEP_UP}; it also ends every session of the account`,
  revokeUserSession: OTHER_SESSION,
  updateSecondFactorPolicy:
    'changes who must set up a second factor for every account of the demo that other samples use',
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
  revokeSuperAdmin: 'the demo’s only super admin is the admin, who cannot revoke their own role',
  revertAuditEvent: 'an audit event’s id is made by the write it records; a fresh demo has none',
  getStoredFile: 'a presigned link is one an upload or a read answered; the example’s signature is not valid',
};
