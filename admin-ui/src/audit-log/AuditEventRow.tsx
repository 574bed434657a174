import { useTranslate } from 'react-admin';
import { Box, IconButton, Link as MuiLink, Tooltip, Typography } from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import { Link } from 'react-router-dom';
import type { AuditEvent } from '../types';
import type { ListColumn, RowDetail } from '../components/list/ListTable';
import {
  ChangesTable,
  recordPath,
  useActionLabel,
  useActorLabel,
  useTargetLabel,
} from '../components/history/auditWords';
import { useFormat } from '../lib/format';

/** The record an event is about, linked where the console has a page for it. */
const Target = ({ event }: { event: AuditEvent }) => {
  const translate = useTranslate();
  const targetLabel = useTargetLabel();
  const path = recordPath(event);
  const target = targetLabel(event.target_type);
  if (!path) return <>{target}</>;
  return (
    <MuiLink
      component={Link}
      to={path}
      underline="hover"
      title={translate('audit.log.open_record')}
      data-testid="audit-record-link"
    >
      {target}
    </MuiLink>
  );
};

/** The audit log's columns: when, who, what and the record. */
export function useAuditColumns(): ListColumn<AuditEvent>[] {
  const actionLabel = useActionLabel();
  const actorLabel = useActorLabel();
  const format = useFormat();
  return [
    {
      key: 'at',
      label: 'audit.log.when',
      render: (e) => <Box sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(e.at)}</Box>,
    },
    { key: 'actor', label: 'audit.log.actor', render: (e) => actorLabel(e) },
    { key: 'action', label: 'audit.log.action', render: (e) => actionLabel(e.action) },
    { key: 'target', label: 'audit.log.target', render: (e) => <Target event={e} /> },
  ];
}

/** An event unfolds to its field changes and the request that made it. */
export function useAuditDetail(): RowDetail<AuditEvent> {
  const translate = useTranslate();
  return {
    toggle: (open, onToggle) => {
      const label = translate(open ? 'audit.log.hide_details' : 'audit.log.details');
      return (
        <Tooltip title={label}>
          <IconButton
            size="small"
            onClick={onToggle}
            aria-expanded={open}
            aria-label={label}
            data-testid="audit-row-toggle"
          >
            {open ? <KeyboardArrowUpIcon fontSize="small" /> : <KeyboardArrowDownIcon fontSize="small" />}
          </IconButton>
        </Tooltip>
      );
    },
    render: (event) => (
      <Box sx={{ py: 1.5 }}>
        <ChangesTable event={event} />
        {(event.request_id || event.ip) && (
          <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
            {translate('audit.log.request', { id: event.request_id ?? '—', ip: event.ip ?? '—' })}
          </Typography>
        )}
      </Box>
    ),
  };
}
