// The words of the audit trail, for the audit log and the History: the kinds of record, actions and actors in words,
// and each event's changes (see words.ts and ChangesTable.tsx).
export { AUDIT_TARGET_TYPES, recordPath, useActionLabel, useActorLabel, useFieldLabel, useTargetLabel } from './words';
export { ChangesTable } from './ChangesTable';
export { EventSummary } from './EventSummary';
