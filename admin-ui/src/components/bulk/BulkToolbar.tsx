import { lazy, Suspense, useState } from 'react';
import { useCanAccess, type Identifier } from 'react-admin';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useBulkTranslate } from './messages';
import type { BulkAction, BulkActionOf, BulkResource } from '../../dataProvider/methods/bulk';
import type { ListSelection } from '../list/useListSelection';

// The dialog (confirmation, progress, results) and the call load on the first bulk action, so they add nothing to
// the first download.
const BulkDialog = lazy(() => import('./BulkDialog'));

/** Actions that lose data or lock people out ask first. */
const CONFIRMED: readonly BulkAction[] = ['delete', 'deactivate'];

export interface BulkToolbarProps<R extends BulkResource> {
  resource: R;
  selection: ListSelection;
  /** The actions that make sense for the list's current filter, in the order shown. */
  actions: readonly BulkActionOf<R>[];
  /** How a row is named in the results (its code or name). */
  labelOf: (id: Identifier) => string;
  /** Refreshes the list after the server answered. */
  onDone: () => void;
}

/**
 * "N selected" and the bulk actions the caller may do, shown while rows are selected. Only actions the caller could do
 * on some row appear (the same grants that show Edit and Delete); the server still decides row by row.
 */
export const BulkToolbar = <R extends BulkResource>({
  resource,
  selection,
  actions,
  labelOf,
  onDone,
}: BulkToolbarProps<R>) => {
  const translate = useBulkTranslate();
  const { canAccess: canEdit } = useCanAccess({ action: 'edit', resource });
  const { canAccess: canDelete } = useCanAccess({ action: 'delete', resource });
  const [pending, setPending] = useState<{ action: BulkActionOf<R>; ids: Identifier[] } | null>(null);

  const count = selection.selected.length;
  if (count === 0 && pending === null) return null;
  const allowed = actions.filter((a) => (a === 'delete' ? canDelete : canEdit) === true);
  const actionLabel = (action: BulkAction) => translate(`bulk.actions.${action}`);

  return (
    <Box sx={{ bgcolor: 'action.selected' }} data-testid="bulk-toolbar">
      {count > 0 && (
        <Stack direction="row" spacing={1} useFlexGap alignItems="center" sx={{ px: 2, py: 1, flexWrap: 'wrap' }}>
          <Typography variant="subtitle2" sx={{ mr: 1 }} data-testid="bulk-count">
            {translate('bulk.selected', { smart_count: count })}
          </Typography>
          {allowed.map((action) => (
            <Button
              key={action}
              size="small"
              variant="outlined"
              color={action === 'delete' ? 'error' : 'primary'}
              disabled={pending !== null}
              onClick={() => setPending({ action, ids: selection.selected })}
              data-testid={`bulk-${action}`}
            >
              {actionLabel(action)}
            </Button>
          ))}
          <Box sx={{ flex: 1 }} />
          <Button size="small" disabled={pending !== null} onClick={selection.clear} data-testid="bulk-clear">
            {translate('bulk.clear')}
          </Button>
        </Stack>
      )}
      {pending !== null && (
        <Suspense fallback={null}>
          <BulkDialog
            resource={resource}
            action={pending.action}
            actionLabel={actionLabel(pending.action)}
            ids={pending.ids}
            confirm={CONFIRMED.includes(pending.action)}
            labelOf={labelOf}
            onAnswered={(failed) => {
              // Failed rows stay selected, so the user can inspect them or try again.
              selection.keepOnly(failed);
              onDone();
            }}
            onClose={() => setPending(null)}
          />
        </Suspense>
      )}
    </Box>
  );
};
