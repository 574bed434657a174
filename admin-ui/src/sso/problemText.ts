import { useTranslate } from 'react-admin';
import { readableProblem } from '../lib/problems';

/** A refused call in words: the server's detail (400, 404, 409 say what is wrong), else a generic failure. */
export const useProblemText = () => {
  const translate = useTranslate();
  return (error: unknown) => readableProblem(error, (field) => field, translate('ra.notification.http_error'));
};
