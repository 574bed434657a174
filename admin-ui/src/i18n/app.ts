import { mergeMessages, type Messages } from '../lib/messages';
import * as shell from './shell';
import * as common from './common';
import * as lists from './lists';
import * as records from './records';

/** The console's own words (`app.*`, and react-admin's where the console rewords them), kept by area. */
export const en: Messages = mergeMessages(shell.en, common.en, lists.en, records.en);
