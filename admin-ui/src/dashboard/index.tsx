import { WidgetWorkspace } from './WidgetWorkspace';

/** The root route: the caller's personal widget workspace. */
export const Dashboard = WidgetWorkspace;
