import { useQuery } from '@tanstack/react-query';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';

export const SSO_PROVIDERS_KEY = ['ssoProviders'];

/** The configured identity providers, shared by every screen that names or offers them. */
export const useSsoProviders = (options: { retry?: boolean; staleTime?: number; enabled?: boolean } = {}) => {
  const dataProvider = useAppDataProvider();
  return useQuery({ queryKey: SSO_PROVIDERS_KEY, queryFn: () => dataProvider.listSsoProviders(), ...options });
};
