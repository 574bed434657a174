import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { AppMenu } from './AppMenu';

export const AppLayout = ({ children }: { children: ReactNode }) => <Layout menu={AppMenu}>{children}</Layout>;
