import { useTranslate } from 'react-admin';
import { Alert, Button } from '@mui/material';
import { statusOf } from '../lib/problems';

/**
 * A failed load, with the server's message and a retry. A missing record (404) is said in words, without the
 * server's text and without a retry: asking again cannot bring it back.
 */
export const ErrorState = ({ error, onRetry }: { error: unknown; onRetry?: () => void }) => {
  const translate = useTranslate();
  const missing = statusOf(error) === 404;
  const message = error instanceof Error ? error.message : '';
  return (
    <Alert
      severity={missing ? 'warning' : 'error'}
      data-testid="error-state"
      action={
        onRetry && !missing ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {translate('app.common.retry')}
          </Button>
        ) : undefined
      }
    >
      {missing ? (
        translate('app.not_found.record')
      ) : (
        <>
          {translate('app.common.load_error')}
          {message ? ` — ${translate(message, { _: message })}` : ''}
        </>
      )}
    </Alert>
  );
};
