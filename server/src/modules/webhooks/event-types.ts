import { operationsOf } from '../../http/operations.js';
import { loadApiSpec } from '../../http/spec.js';

/** Audit actions that are no operation of the contract (a sign-in that succeeds is `login`, the operation's own). */
const OTHER_ACTIONS = ['login.failed', 'login.delayed', 'secondFactor.failed', 'stepUp.failed', 'unattributedChange'];

let cached: string[] | null = null;

/** The reads that write: the provider's redirect back creates the account at its first single sign-on. */
const AUDITED_READS = new Set(['completeSsoSignIn']);

/**
 * The event types a subscription may choose: the audit trail's actions, which are the contract's writes (read from
 * the contract, so a new write is a new event type), the read that writes, and the events that are no operation.
 */
export function webhookEventTypes(): string[] {
  cached ??= [
    ...operationsOf(loadApiSpec())
      .filter((op) => op.method !== 'GET' || AUDITED_READS.has(op.id))
      .map((op) => op.id),
    ...OTHER_ACTIONS,
  ];
  return cached;
}
