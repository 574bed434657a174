import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from './index';

/** The console's data provider with its custom (non-CRUD) methods typed. */
export const useAppDataProvider = () => useDataProvider<AppDataProvider>();
