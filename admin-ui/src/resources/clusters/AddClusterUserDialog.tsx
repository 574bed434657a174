import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Typography } from '@mui/material';
import type { BusinessUnit, PlatformUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { isNearScrollEnd } from '../../lib/membership';
import { useAddMember } from '../../components/members/MemberDialog';
import { AddMemberDialog } from '../../components/members/AddMemberDialog';
import { ParentBuSelect } from './ParentBuSelect';

const USER_PAGE_SIZE = 10;

/** Global user search (pages of 10, more within 40 px of the end) minus the cluster's members; role and optional parent BU. */
export const AddClusterUserDialog = (props: {
  open: boolean;
  clusterId: string;
  businessUnits: BusinessUnit[];
  onClose: () => void;
  onAdded: () => void;
}) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const [parentBu, setParentBu] = useState('');
  const add = useAddMember<PlatformUser>({
    onClose: () => {
      setParentBu('');
      props.onClose();
    },
    onAdded: () => {
      setParentBu('');
      props.onAdded();
    },
  });
  const debounced = useDebouncedValue(add.search);
  const users = useInfiniteQuery({
    queryKey: ['userSearch', props.clusterId, debounced],
    enabled: props.open,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      dataProvider.searchUsers({
        search: debounced,
        page: pageParam,
        perpage: USER_PAGE_SIZE,
        exclude_cluster_id: props.clusterId,
      }),
    getNextPageParam: (last) => (last.paginate.page < last.paginate.pages ? last.paginate.page + 1 : undefined),
  });

  return (
    <AddMemberDialog<PlatformUser>
      open={props.open}
      add={add}
      testId="add-cluster-user-dialog"
      submitTestId="add-user-submit"
      search={{ label: translate('app.members.search_users'), testId: 'user-search' }}
      source={users}
      people={users.data?.pages.flatMap((p) => p.data) ?? []}
      keyOf={(u) => u.id}
      optionTestId="user-option"
      none={
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {translate('app.members.no_users_found')}
        </Typography>
      }
      choicesTestId="user-search-results"
      onScroll={(el) => {
        if (isNearScrollEnd(el) && users.hasNextPage && !users.isFetchingNextPage) void users.fetchNextPage();
      }}
      more={users.isFetchingNextPage}
      after={<ParentBuSelect businessUnits={props.businessUnits} value={parentBu} onChange={setParentBu} />}
      send={(user, role) =>
        dataProvider.addClusterUser({
          user_id: user.id,
          cluster_id: props.clusterId,
          role,
          is_active: true,
          ...(parentBu ? { parent_bu_id: parentBu } : {}),
        })
      }
    />
  );
};
