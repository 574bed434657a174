import { useTranslate } from 'react-admin';
import type { AuditEvent, AuditTargetType } from '../../types';
import { everyMember } from '../../lib/exhaustive';

/** Every kind of record the audit trail knows, in the contract's order. */
export const AUDIT_TARGET_TYPES = everyMember<AuditTargetType>()([
  'cluster',
  'business_unit',
  'cluster_user',
  'business_unit_user',
  'print_template_mapping',
  'widget',
  'user',
  'session',
  'sso_group_mapping',
  'webhook',
  'api_token',
]);

/** The resource whose field labels name a target's fields, and whose read view opens it. */
export const RESOURCE_OF: Partial<Record<AuditTargetType, string>> = {
  cluster: 'clusters',
  business_unit: 'business-units',
  print_template_mapping: 'print-template-mappings',
  user: 'users',
};

/** A kind of record in words: a resource's own name where the console has one. */
export function useTargetLabel() {
  const translate = useTranslate();
  return (type: AuditTargetType) => {
    const resource = RESOURCE_OF[type];
    return resource
      ? translate(`resources.${resource}.name`, { smart_count: 1 })
      : translate(`audit.targets.${type}`, { _: type });
  };
}

/** A field of a kind of record in words: its label on the record's form where the console has one. */
export function useFieldLabel(type: AuditTargetType) {
  const translate = useTranslate();
  const resource = RESOURCE_OF[type];
  return (field: string) => (resource ? translate(`resources.${resource}.fields.${field}`, { _: field }) : field);
}

/** The read view of an event's record, where the console has one. */
export function recordPath(event: Pick<AuditEvent, 'target_type' | 'target_id'>): string | null {
  const resource = RESOURCE_OF[event.target_type];
  return resource && event.target_id ? `/${resource}/${event.target_id}` : null;
}

/** The action in words; an action the console has no words for is named as it is. */
export function useActionLabel() {
  const translate = useTranslate();
  return (action: string) =>
    translate(`audit.actions.${action.replace(/\./g, '_')}`, {
      _: translate('audit.history.unknown_action', { action }),
    });
}

/** Who did it: the actor's name at the time, or the system when no one signed in did. */
export function useActorLabel() {
  const translate = useTranslate();
  return (event: Pick<AuditEvent, 'actor_id' | 'actor_name'>) =>
    event.actor_name || translate(event.actor_id ? 'audit.history.system' : 'audit.history.anonymous');
}
