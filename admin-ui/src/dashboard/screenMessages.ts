import * as dashboard from './i18n';

/** The workspace's words (`dashboard.*`), given to its screen by `ScreenMessages`. */
export const DASHBOARD_MESSAGES = [dashboard];
