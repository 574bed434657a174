import { describe, expect, it } from 'vitest';
import { auditScreenMessages } from './messages';
import { writeOperationIds } from '../test/bundledSpec';
import type { Messages } from '../lib/messages';

/**
 * The writes whose own operationId is never an event's action: each records another action (a sign-in's `login`, a
 * bulk action's per-record update) or nothing (a challenge or a secret still to be confirmed). The server's audit
 * test (test/server/audit.test.ts) checks what each write records.
 */
const RECORDED_AS_OTHERS = [
  'verifySecondFactor',
  'signInWithPasskey',
  'exchangeSsoCode',
  'logoutSso',
  'passkeySignInOptions',
  'startTotpEnrolment',
  'passkeyRegistrationOptions',
  'stepUpPasskeyOptions',
  'bulkClusters',
  'bulkBusinessUnits',
  'bulkUsers',
  'bulkPrintTemplateMappings',
  'importMemberships',
  'revertAuditEvent',
];

/** The actions that are no write of the contract: sign-in outcomes, and changes made outside the product. */
const OTHER_ACTIONS = [
  'login',
  'login.failed',
  'login.delayed',
  'secondFactor.failed',
  'stepUp.failed',
  'unattributedChange',
];

const wordOf = (tree: Messages, action: string): unknown => {
  const actions = (tree.audit as Messages | undefined)?.actions as Messages | undefined;
  return actions?.[action.replace(/\./g, '_')];
};

describe('the words of the audit log and History', () => {
  const recorded = [...writeOperationIds().filter((id) => !RECORDED_AS_OTHERS.includes(id)), ...OTHER_ACTIONS];

  it.each(['en', 'th'] as const)('name every action an event can record, in %s', (locale) => {
    expect(recorded.length).toBeGreaterThan(60);
    const unnamed = recorded.filter((action) => typeof wordOf(auditScreenMessages[locale], action) !== 'string');
    expect(unnamed).toEqual([]);
  });

  it('list no operation as recorded under another action that the contract does not have', () => {
    expect(RECORDED_AS_OTHERS.filter((id) => !writeOperationIds().includes(id))).toEqual([]);
  });
});
