import { Fragment, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Box, Collapse, IconButton, Link as MuiLink, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import { Link } from 'react-router-dom';
import type { AuditEvent } from '../types';
import {
  ChangesTable,
  recordPath,
  useActionLabel,
  useActorLabel,
  useTargetLabel,
} from '../components/history/auditWords';
import { useFormat } from '../lib/format';

/** One event: when, who, what and the record; it unfolds to its field changes and the request that made it. */
export const AuditEventRow = ({ event }: { event: AuditEvent }) => {
  const translate = useTranslate();
  const actionLabel = useActionLabel();
  const actorLabel = useActorLabel();
  const targetLabel = useTargetLabel();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const path = recordPath(event);
  const target = targetLabel(event.target_type);
  return (
    <Fragment>
      <TableRow hover data-testid="audit-row" sx={{ '& > td': { borderBottom: open ? 'none' : undefined } }}>
        <TableCell padding="checkbox">
          <Tooltip title={translate(open ? 'audit.log.hide_details' : 'audit.log.details')}>
            <IconButton
              size="small"
              onClick={() => setOpen((o) => !o)}
              aria-expanded={open}
              aria-label={translate(open ? 'audit.log.hide_details' : 'audit.log.details')}
              data-testid="audit-row-toggle"
            >
              {open ? <KeyboardArrowUpIcon fontSize="small" /> : <KeyboardArrowDownIcon fontSize="small" />}
            </IconButton>
          </Tooltip>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{format.dateTime(event.at)}</TableCell>
        <TableCell>{actorLabel(event)}</TableCell>
        <TableCell>{actionLabel(event.action)}</TableCell>
        <TableCell>
          {path ? (
            <MuiLink
              component={Link}
              to={path}
              underline="hover"
              title={translate('audit.log.open_record')}
              data-testid="audit-record-link"
            >
              {target}
            </MuiLink>
          ) : (
            target
          )}
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={5} sx={{ py: 0 }}>
          <Collapse in={open} unmountOnExit>
            <Box sx={{ py: 1.5 }}>
              <ChangesTable event={event} />
              {(event.request_id || event.ip) && (
                <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
                  {translate('audit.log.request', { id: event.request_id ?? '—', ip: event.ip ?? '—' })}
                </Typography>
              )}
            </Box>
          </Collapse>
        </TableCell>
      </TableRow>
    </Fragment>
  );
};
