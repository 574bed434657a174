import { useTranslate } from 'react-admin';
import { Chip, Tooltip } from '@mui/material';
import { deviceOf } from './device';

/** Where a sessions card's words are: My account's, or a person's page's. */
type SessionWords = 'account.sessions' | 'resources.users.sessions';

/** The device of a session in words ("Chrome on Linux"). */
export function useDeviceName(words: SessionWords) {
  const translate = useTranslate();
  return (userAgent: string | null) => {
    const { browser, os } = deviceOf(userAgent);
    if (!browser && !os) return translate(`${words}.unknown_device`);
    return translate(`${words}.device_name`, {
      browser: browser ?? translate(`${words}.unknown_browser`),
      os: os ?? translate(`${words}.unknown_os`),
    });
  };
}

/** A session's device in words, its whole user agent on hover, and `mark` (this device, yours) beside it. */
export const SessionDevice = (props: { name: string; userAgent: string | null; mark: string | null }) => (
  <>
    <Tooltip title={props.userAgent ?? ''} disableHoverListener={!props.userAgent}>
      <span>{props.name}</span>
    </Tooltip>
    {props.mark ? <Chip size="small" color="primary" sx={{ ml: 1 }} label={props.mark} /> : null}
  </>
);
