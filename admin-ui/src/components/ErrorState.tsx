import { useTranslate } from 'react-admin';
import { Alert, Button } from '@mui/material';

/** A failed load, with the server's message and a retry. */
export const ErrorState = ({ error, onRetry }: { error: unknown; onRetry?: () => void }) => {
  const translate = useTranslate();
  const message = error instanceof Error ? error.message : '';
  return (
    <Alert
      severity="error"
      data-testid="error-state"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {translate('app.common.retry')}
          </Button>
        ) : undefined
      }
    >
      {translate('app.common.load_error')}
      {message ? ` — ${translate(message, { _: message })}` : ''}
    </Alert>
  );
};
