// Every transaction the contract suite skips, with the reason. A skip not matched here fails the suite.
'use strict';

const SKIPS = [
  {
    reason:
      "Dredd turns each operation's `default` response (the problem+json catch-all) into a second 200 transaction; " +
      'no request yields a 200 problem, and every concrete error status of the operation has its own transaction',
    match: (t) => t.expectedStatus === '200' && /problem\+json/.test(t.contentType || ''),
  },
  {
    reason:
      'GET /healthz 503 needs a database that stops answering while the server runs (covered by test/server/health.test.ts)',
    match: (t) => t.operationId === 'getHealth' && t.expectedStatus === '503',
  },
  {
    reason:
      'GET /readyz 503 needs a database that stops answering, or a schema out of step, while the server runs (covered by test/server/health.test.ts)',
    match: (t) => t.operationId === 'getReadiness' && t.expectedStatus === '503',
  },
  {
    reason:
      'DELETE /api-system/users/{id}/super-admin 200 needs a second active super admin, and no operation makes one (the flag is ' +
      'never granted through the API); the suite database has only the admin of the demo data. Covered over HTTP by ' +
      'test/server/accounts.test.ts and test/reliability/authorization-matrix.test.ts',
    match: (t) => t.operationId === 'revokeSuperAdmin' && t.expectedStatus === '200',
  },
  {
    reason:
      'A passkey sign-in, registration, removal or step-up succeeds only with an authenticator signing a challenge, ' +
      'which Dredd cannot do; covered over HTTP with real WebAuthn answers (a software authenticator checked by ' +
      '@simplewebauthn/server) by test/server/second-factor.test.ts, and in Chromium by test/e2e/second-factor.test.ts',
    match: (t) =>
      (t.operationId === 'signInWithPasskey' && t.expectedStatus === '200') ||
      (t.operationId === 'registerPasskey' && t.expectedStatus === '201') ||
      (t.operationId === 'removePasskey' && t.expectedStatus === '204') ||
      (t.operationId === 'stepUpPasskeyOptions' && t.expectedStatus === '200'),
  },
  {
    reason:
      'The 409 of removing the last factor, and of adding a passkey beside one, needs an account that must enrol and ' +
      'holds a passkey; covered by test/server/second-factor.test.ts',
    match: (t) =>
      ['removeTotp', 'removePasskey', 'registerPasskey'].includes(t.operationId) && t.expectedStatus === '409',
  },
];

/** The reason a transaction may be skipped, or null when it must run. */
function explainSkip(t) {
  const rule = SKIPS.find((s) => s.match(t));
  return rule ? rule.reason : null;
}

module.exports = { SKIPS, explainSkip };
