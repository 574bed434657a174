import { mergeMessages, type Messages } from '../lib/messages';
import * as shell from './shell.th';
import * as common from './common.th';
import * as lists from './lists.th';
import * as records from './records.th';

export const th: Messages = mergeMessages(shell.th, common.th, lists.th, records.th);
