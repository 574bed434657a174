import { Fragment, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link as MuiLink } from '@mui/material';
import { Link } from 'react-router-dom';
import type { AuditEvent } from '../../types';
import { useActionLabel, useTargetLabel } from './words';
import { usePermissionLabel } from '../../resources/users/permissionKeys';

type Labels = NonNullable<AuditEvent['labels']>;

/** A character no message holds: it fences each named part of a sentence, so the part can become a link. */
const FENCE = '\u0001';

/**
 * A translated sentence whose parts are nodes (links): the message is translated with fenced part names, then each
 * fenced name is put back as its node, so the words stay in the order the language puts them.
 */
function useSentence() {
  const translate = useTranslate();
  return (key: string, parts: Record<string, ReactNode>) => {
    const fenced = Object.fromEntries(Object.keys(parts).map((name) => [name, `${FENCE}${name}${FENCE}`]));
    return translate(key, fenced)
      .split(FENCE)
      .map((piece, i) => <Fragment key={i}>{i % 2 === 1 && piece in parts ? parts[piece] : piece}</Fragment>);
  };
}

/** A record's name, linked to its page when the console has one and the event names it by id. */
const Named = ({ name, path }: { name: string; path?: string | null }) =>
  path ? (
    <MuiLink component={Link} to={path} underline="hover" data-testid="audit-named-link">
      {name}
    </MuiLink>
  ) : (
    <strong>{name}</strong>
  );

/** The kinds of record the sentences name by their labels, with each one's page and label. */
function targetOf(event: AuditEvent, labels: Labels): { name: string; path: string | null } | null {
  const id = event.target_id;
  switch (event.target_type) {
    case 'cluster':
      return labels.cluster ? { name: labels.cluster, path: id && `/clusters/${id}` } : null;
    case 'business_unit':
      return labels.business_unit ? { name: labels.business_unit, path: id && `/business-units/${id}` } : null;
    case 'print_template_mapping':
      return labels.mapping ? { name: labels.mapping, path: id && `/print-template-mappings/${id}` } : null;
    case 'user':
      return labels.user ? { name: labels.user, path: id && `/users/${id}` } : null;
    default:
      return null;
  }
}

/** An update that switched the record on or off and changed nothing else (what a bulk switch does). */
export function switchOf(event: Pick<AuditEvent, 'action' | 'changes'>): 'activated' | 'deactivated' | null {
  const fields = Object.keys(event.changes ?? {});
  if (!event.action.startsWith('update') || fields.length !== 1 || fields[0] !== 'is_active') return null;
  return event.changes.is_active!.after === true ? 'activated' : 'deactivated';
}

/**
 * What the event did, in one sentence that names things by the labels recorded with it, each linked to its page:
 * "Granted Read clusters on CL-S to nok", "Added nok to BU-01 as admin", "Deactivated Cluster CL-S". An event recorded
 * without labels reads as its action, as before labels were kept.
 */
export const EventSummary = ({ event }: { event: AuditEvent }) => {
  const translate = useTranslate();
  const sentence = useSentence();
  const actionLabel = useActionLabel();
  const targetLabel = useTargetLabel();
  const permissionLabel = usePermissionLabel();
  const labels = event.labels;
  if (!labels) return <>{actionLabel(event.action)}</>;

  const user = labels.user ? (
    <Named name={labels.user} path={labels.user_id && `/users/${labels.user_id}`} />
  ) : (
    translate('audit.sentence.someone')
  );
  const cluster = labels.cluster ? (
    <Named name={labels.cluster} path={event.cluster_id && `/clusters/${event.cluster_id}`} />
  ) : null;
  const unit = labels.business_unit ? (
    <Named name={labels.business_unit} path={labels.business_unit_id && `/business-units/${labels.business_unit_id}`} />
  ) : null;
  const place = (event.target_type === 'business_unit_user' ? unit : cluster) ?? translate('audit.sentence.somewhere');
  const role = labels.role ? translate(`audit.roles.${labels.role}`, { _: labels.role }) : '';

  if (labels.permission && (event.action === 'addUserGrant' || event.action === 'removeUserGrant')) {
    const scope =
      labels.scope && labels.scope_id ? (
        <Named name={labels.scope} path={`/clusters/${labels.scope_id}`} />
      ) : (
        (labels.scope ?? translate('audit.sentence.all_clusters'))
      );
    const key = event.action === 'addUserGrant' ? 'grant_added' : 'grant_removed';
    return (
      <>
        {sentence(`audit.sentence.${key}`, {
          permission: <strong>{permissionLabel(labels.permission)}</strong>,
          scope,
          user,
        })}
      </>
    );
  }
  if (event.target_type === 'cluster_user' || event.target_type === 'business_unit_user') {
    if (event.action.startsWith('add')) return <>{sentence('audit.sentence.member_added', { user, place, role })}</>;
    if (event.action.startsWith('remove')) return <>{sentence('audit.sentence.member_removed', { user, place })}</>;
    if (event.changes.role) return <>{sentence('audit.sentence.member_role', { user, place, role })}</>;
    if (event.action.startsWith('update')) return <>{sentence('audit.sentence.member_changed', { user, place })}</>;
  }

  const named = targetOf(event, labels);
  if (!named) return <>{actionLabel(event.action)}</>;
  const target = <Named {...named} />;
  // Within a sentence the kind of record is a common noun ("the cluster CL-S").
  const kind = targetLabel(event.target_type).toLocaleLowerCase();
  if (labels.revert_of) return <>{sentence('audit.sentence.reverted', { kind, target })}</>;
  const switched = switchOf(event);
  if (switched) return <>{sentence(`audit.sentence.${switched}`, { kind, target })}</>;
  return <>{sentence('audit.sentence.record', { action: actionLabel(event.action), target })}</>;
};
