import { useQueryClient } from '@tanstack/react-query';

/**
 * After a membership change, every card that shows memberships or what they count: the cluster's and the units'
 * member lists, the units' user counts (react-admin's business-unit caches), and the History cards.
 */
export function useMembershipRefresh(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all(
      [['clusterUsers'], ['businessUnitUsers'], ['business-units'], ['auditEvents']].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
  };
}
