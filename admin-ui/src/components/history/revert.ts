import type { AuditEvent } from '../../types';

/** The actions whose field changes can be reverted, with the resource whose edit permission a revert needs. */
const REVERTIBLE: Record<string, { type: AuditEvent['target_type']; resource: string }> = {
  updateCluster: { type: 'cluster', resource: 'clusters' },
  updateBusinessUnit: { type: 'business_unit', resource: 'business-units' },
  updatePrintTemplateMapping: { type: 'print_template_mapping', resource: 'print-template-mappings' },
};

/** Fields whose values the trail keeps in a form a revert cannot put back (JSON settings, a secret): edit instead. */
const FIXED = /^(config|db_connection|.*_format)$/;

/** The resource whose record a revert of this event edits, or null when the event is not a revertible field change. */
export function revertResource(event: AuditEvent): string | null {
  const kind = REVERTIBLE[event.action];
  const fields = Object.keys(event.changes ?? {});
  if (!kind || kind.type !== event.target_type || !event.target_id || fields.length === 0) return null;
  return fields.some((f) => FIXED.test(f)) ? null : kind.resource;
}
