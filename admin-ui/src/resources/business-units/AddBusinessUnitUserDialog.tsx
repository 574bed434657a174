import { useGetOne, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Link as MuiLink, Stack, Typography } from '@mui/material';
import type { Cluster, ClusterUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { compareByNameThenEmail, matchesUserSearch } from '../../lib/displayName';
import { clusterAddUserPath } from '../../lib/membership';
import { useAddMember } from '../../components/members/MemberDialog';
import { AddMemberDialog } from '../../components/members/AddMemberDialog';

/** Why no user can be picked, in the words the dialog says it. */
type NoneToPick = 'cluster_has_no_users' | 'all_are_members' | 'no_match';

/**
 * Pick from the cluster's users not yet in the BU (filtered here by username, email and full name), with a role. A
 * business unit takes its members from its cluster's users, as the import does (ADR 0021): the dialog says so, and
 * when nobody is left to pick it says why and links to the cluster's page, where Add user searches every account.
 */
export const AddBusinessUnitUserDialog = (props: {
  open: boolean;
  businessUnitId: string;
  clusterId: string;
  memberUserIds: Set<string>;
  onClose: () => void;
  onAdded: () => void;
}) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const add = useAddMember<ClusterUser>(props);
  const clusterUsers = useQuery({
    queryKey: ['clusterUsers', props.clusterId],
    queryFn: () => dataProvider.getClusterUsers(props.clusterId),
    enabled: props.open && !!props.clusterId,
  });
  const { data: cluster } = useGetOne<Cluster>('clusters', { id: props.clusterId }, { enabled: props.open });
  const clusterName = cluster?.name ?? translate('members.this_cluster');
  const notMembers = (clusterUsers.data ?? []).filter((u) => !props.memberUserIds.has(u.user_id));
  const candidates = notMembers.filter((u) => matchesUserSearch(u, add.search)).sort(compareByNameThenEmail);
  const none: NoneToPick =
    clusterUsers.data?.length === 0 ? 'cluster_has_no_users' : notMembers.length === 0 ? 'all_are_members' : 'no_match';

  return (
    <AddMemberDialog<ClusterUser>
      open={props.open}
      add={add}
      testId="add-bu-user-dialog"
      submitTestId="add-bu-user-submit"
      search={{
        label: translate('app.members.search_cluster_users'),
        helperText: translate('members.from_cluster', { cluster: clusterName }),
      }}
      source={clusterUsers}
      people={candidates}
      keyOf={(u) => u.user_id}
      optionTestId="bu-user-option"
      none={
        <Stack spacing={1} sx={{ p: 2 }} data-testid="bu-user-none" data-reason={none}>
          <Typography color="text.secondary">
            {translate(`members.${none}`, { cluster: clusterName, search: add.search })}
          </Typography>
          {none !== 'no_match' && (
            <MuiLink
              component={Link}
              to={clusterAddUserPath(props.clusterId)}
              onClick={add.close}
              underline="hover"
              data-testid="bu-user-add-to-cluster"
            >
              {translate('members.add_to_cluster', { cluster: clusterName })}
            </MuiLink>
          )}
        </Stack>
      }
      send={(user, role) =>
        dataProvider.addBusinessUnitUser({ user_id: user.user_id, business_unit_id: props.businessUnitId, role })
      }
    />
  );
};
