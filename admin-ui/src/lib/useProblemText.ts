import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { readableProblem } from './problems';

/**
 * A refused call in words: the server's detail (400, 404, 409 say what is wrong), else a generic failure. For a
 * notification, `useNotice`'s `error` option says the same without this step.
 */
export const useProblemText = () => {
  const translate = useTranslate();
  return useCallback(
    (error: unknown) => readableProblem(error, (field) => field, translate('ra.notification.http_error')),
    [translate],
  );
};
