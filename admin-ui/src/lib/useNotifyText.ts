import { useCallback } from 'react';
import { useNotify } from 'react-admin';

type NotifyType = 'success' | 'error' | 'info' | 'warning';

/**
 * Notifies a sentence that is already translated. The notification area lies outside the screens' own messages and
 * would look the text up again as a key: it gets the sentence itself.
 */
export const useNotifyText = () => {
  const notify = useNotify();
  return useCallback((text: string, type: NotifyType) => notify(text, { type, messageArgs: { _: text } }), [notify]);
};
