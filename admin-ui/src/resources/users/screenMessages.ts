import type { MessageModule } from '../../lib/messages';
import { auditScreenMessages } from '../../audit-log/messages';
import { userScreenMessages } from './messages';

/** What the account screens say, the History tab's words included. */
export const USER_SCREEN_MESSAGES: readonly MessageModule[] = [userScreenMessages, auditScreenMessages];
