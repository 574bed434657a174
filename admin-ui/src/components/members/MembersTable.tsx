import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import {
  Box,
  IconButton,
  Link as MuiLink,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
} from '@mui/material';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import type { BusinessUnitUser, ClusterUser } from '../../types';
import { displayName } from '../../lib/displayName';
import { StatusChip } from '../StatusChip';

/**
 * Members in the order given: Name (opens the edit dialog for those who may manage members), Email, one column
 * of the card's own, Status, and Remove.
 */
export const MembersTable = <M extends ClusterUser | BusinessUnitUser>(props: {
  rows: readonly M[];
  /** The card's own column: the parent BU of a cluster member, the role of a BU member. */
  detail: { label: string; render: (member: M) => ReactNode };
  canManage: boolean;
  onEdit: (member: M) => void;
  onRemove: (member: M) => void;
  rowTestId: string;
  removeTestId: string;
}) => {
  const translate = useTranslate();
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.members.name')}</TableCell>
            <TableCell>{translate('app.members.email')}</TableCell>
            <TableCell>{translate(props.detail.label)}</TableCell>
            <TableCell>{translate('app.members.status')}</TableCell>
            <TableCell align="right">{translate('app.members.remove')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.rows.map((m) => (
            <TableRow key={m.id} data-testid={props.rowTestId}>
              <TableCell>
                {props.canManage ? (
                  <MuiLink component="button" type="button" underline="hover" onClick={() => props.onEdit(m)}>
                    {displayName(m)}
                  </MuiLink>
                ) : (
                  displayName(m)
                )}
              </TableCell>
              <TableCell>{m.email}</TableCell>
              <TableCell>{props.detail.render(m)}</TableCell>
              <TableCell>
                <StatusChip active={m.is_active} />
              </TableCell>
              <TableCell align="right">
                {props.canManage && (
                  <Tooltip title={translate('app.members.remove')}>
                    <IconButton
                      size="small"
                      onClick={() => props.onRemove(m)}
                      aria-label={translate('app.members.remove')}
                      data-testid={props.removeTestId}
                    >
                      <PersonRemoveIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};
