import { useCallback } from 'react';
import { useNotify, useTranslate, type TranslateFunction } from 'react-admin';
import { readableProblem } from './problems';

type NotifyType = 'success' | 'error' | 'info' | 'warning';

export interface NoticeOptions {
  type?: NotifyType;
  /** The message's arguments (`%{name}`, `smart_count`). */
  args?: Record<string, unknown>;
  /** A failure: its reason in words becomes the message's `%{reason}` (the server's detail, or a generic failure). */
  error?: unknown;
}

/**
 * A refused call in words: the server's detail (400, 404, 409 say what is wrong), else a generic failure. The same
 * words `useNotice` gives a message's `%{reason}`, for a dialog that shows the failure in place.
 */
export const useReason = () => {
  const translate = useTranslate();
  return useCallback(
    (error: unknown) => readableProblem(error, (field) => field, translate('ra.notification.http_error')),
    [translate],
  );
};

/**
 * The console's one way to say something in the notification area: a message key, translated here, where the
 * screen's own messages are in scope (the notification area lies outside them and would look the text up again as a
 * key, so it gets the final sentence). A failure's reason comes from the error itself. A part that looks its words up
 * itself (`useScreenTranslate`) hands over its own `translate`.
 */
export const useNotice = (translateWith?: TranslateFunction) => {
  const notify = useNotify();
  const appTranslate = useTranslate();
  const translate = translateWith ?? appTranslate;
  const reasonOf = useReason();
  return useCallback(
    (key: string, { type = 'info', args = {}, error }: NoticeOptions = {}) => {
      const reason = error === undefined ? {} : { reason: reasonOf(error) };
      const text = translate(key, { _: key, ...args, ...reason });
      notify(text, { type, messageArgs: { _: text } });
    },
    [notify, translate, reasonOf],
  );
};
