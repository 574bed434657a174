import { operationsOf } from '../../http/operations.js';
import { loadApiSpec } from '../../http/spec.js';

/** Audit actions that are no operation of the contract. */
const OTHER_ACTIONS = [
  'login.succeeded',
  'login.failed',
  'login.delayed',
  'secondFactor.failed',
  'stepUp.failed',
  'unattributedChange',
];

let cached: string[] | null = null;

/**
 * The event types a subscription may choose: the audit trail's actions, which are the contract's writes (read from
 * the contract, so a new write is a new event type) and the events that are no operation.
 */
export function webhookEventTypes(): string[] {
  cached ??= [
    ...operationsOf(loadApiSpec())
      .filter((op) => op.method !== 'get')
      .map((op) => op.id),
    ...OTHER_ACTIONS,
  ];
  return cached;
}
