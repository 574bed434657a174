import { useCallback } from 'react';
import { useNotify, useTranslate } from 'react-admin';
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
 * The console's one way to say something in the notification area: a message key, translated here, where the
 * screen's own messages are in scope (the notification area lies outside them and would look the text up again as a
 * key, so it gets the final sentence). A failure's reason comes from the error itself.
 */
export const useNotice = () => {
  const notify = useNotify();
  const translate = useTranslate();
  return useCallback(
    (key: string, { type = 'info', args = {}, error }: NoticeOptions = {}) => {
      const reason =
        error === undefined
          ? {}
          : { reason: readableProblem(error, (f) => f, translate('ra.notification.http_error')) };
      const text = translate(key, { _: key, ...args, ...reason });
      notify(text, { type, messageArgs: { _: text } });
    },
    [notify, translate],
  );
};

/**
 * Notifies a sentence that is already translated. The older form of `useNotice`, for the screens that still build
 * their sentence themselves; new code uses `useNotice`.
 */
export const useNotifyText = () => {
  const notify = useNotify();
  return useCallback((text: string, type: NotifyType) => notify(text, { type, messageArgs: { _: text } }), [notify]);
};
