import type { MessageModule } from '../../lib/messages';
import { auditScreenMessages } from '../../audit-log/messages';
import { userScreenMessages } from './messages';
import { userSecurityScreenMessages } from './securityMessages';

/** What the account screens say, the sessions', second factors' and History tab's words included. */
export const USER_SCREEN_MESSAGES: readonly MessageModule[] = [
  userScreenMessages,
  userSecurityScreenMessages,
  auditScreenMessages,
];
