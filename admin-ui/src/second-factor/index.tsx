import { lazyPage } from '../components/lazyPage';

/** The only screen while the account must set up a second factor, loaded when that happens. */
export const ForcedEnrolmentPage = lazyPage(async () => (await import('./ForcedEnrolment')).ForcedEnrolment);
