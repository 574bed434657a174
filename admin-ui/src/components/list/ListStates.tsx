import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { ErrorState } from '../ErrorState';

/**
 * What a list shows in place of its table: the server's refusal or failure with Retry, or its empty state (a
 * sentence, and an action where there is one); otherwise the table.
 */
export const ListStates = (props: {
  error: unknown;
  onRetry: () => void;
  empty: boolean;
  emptyText: string;
  emptyAction?: ReactNode;
  children: ReactNode;
}) => {
  if (props.error) {
    return (
      <Box sx={{ p: 2 }}>
        <ErrorState error={props.error} onRetry={props.onRetry} />
      </Box>
    );
  }
  if (props.empty) {
    return (
      <Box sx={{ p: 4, textAlign: 'center' }} data-testid="list-empty">
        <Typography variant="h6" color="text.secondary" gutterBottom>
          {props.emptyText}
        </Typography>
        {props.emptyAction}
      </Box>
    );
  }
  return <>{props.children}</>;
};
