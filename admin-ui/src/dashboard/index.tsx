import { lazyPage } from '../components/lazyPage';

/** The root route: the caller's personal widget workspace (the grid and its charts load on first use). */
export const Dashboard = lazyPage(async () => (await import('./WidgetWorkspace')).WidgetWorkspace);
