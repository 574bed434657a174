import { useTranslate } from 'react-admin';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
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
]);

/** The resource whose field labels name a target's fields, and whose read view opens it. */
const RESOURCE_OF: Partial<Record<AuditTargetType, string>> = {
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

const Value = ({ value }: { value: unknown }) => {
  const translate = useTranslate();
  if (value === null || value === undefined || value === '')
    return (
      <Typography variant="body2" component="span" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {translate('audit.history.empty_value')}
      </Typography>
    );
  if (typeof value === 'boolean') return <>{translate(value ? 'ra.boolean.true' : 'ra.boolean.false')}</>;
  if (typeof value === 'string' || typeof value === 'number') return <>{String(value)}</>;
  // An audit value is JSON: what is left is an object or an array, shown as its JSON text.
  return (
    <Box component="code" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 12 }}>
      {JSON.stringify(value)}
    </Box>
  );
};

/** Field by field, the value before and after; each field under its label when the record's resource has one. */
export const ChangesTable = ({ event }: { event: Pick<AuditEvent, 'changes' | 'target_type'> }) => {
  const translate = useTranslate();
  const resource = RESOURCE_OF[event.target_type];
  const entries = Object.entries(event.changes ?? {});
  if (entries.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('audit.history.no_changes')}
      </Typography>
    );
  const label = (field: string) =>
    resource ? translate(`resources.${resource}.fields.${field}`, { _: field }) : field;
  return (
    <Table size="small" data-testid="history-changes">
      <TableHead>
        <TableRow>
          <TableCell>{translate('audit.history.field')}</TableCell>
          <TableCell>{translate('audit.history.before')}</TableCell>
          <TableCell padding="none" />
          <TableCell>{translate('audit.history.after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {entries.map(([field, change]) => (
          <TableRow key={field} data-testid="history-change" data-field={field}>
            <TableCell sx={{ fontWeight: 500 }}>{label(field)}</TableCell>
            <TableCell data-testid="change-before">
              <Value value={change.before} />
            </TableCell>
            <TableCell padding="none">
              <ArrowForwardIcon fontSize="small" color="action" aria-hidden />
            </TableCell>
            <TableCell data-testid="change-after">
              <Value value={change.after} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
