import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Box, CircularProgress, Typography } from '@mui/material';
import type { BusinessUnit, PlatformUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { isNearScrollEnd } from '../../lib/membership';
import {
  ChoicesBox,
  MemberDialog,
  PersonChoices,
  PersonSearch,
  useAddMember,
} from '../../components/members/MemberDialog';
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
  const rows = users.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <MemberDialog
      open={props.open}
      onClose={add.close}
      title={translate('app.members.add_title')}
      testId="add-cluster-user-dialog"
      wide
      role={add.role}
      onRole={add.setRole}
      submitLabel="ra.action.add"
      submitTestId="add-user-submit"
      canSubmit={add.selected !== null}
      busy={add.busy}
      onSubmit={() =>
        void add.submit((user, role) =>
          dataProvider.addClusterUser({
            user_id: user.id,
            cluster_id: props.clusterId,
            role,
            is_active: true,
            ...(parentBu ? { parent_bu_id: parentBu } : {}),
          }),
        )()
      }
      before={
        <>
          <PersonSearch
            label={translate('app.members.search_users')}
            value={add.search}
            onChange={add.setSearch}
            testId="user-search"
          />
          <ChoicesBox
            testId="user-search-results"
            onScroll={(el) => {
              if (isNearScrollEnd(el) && users.hasNextPage && !users.isFetchingNextPage) void users.fetchNextPage();
            }}
          >
            {users.isError ? (
              <Typography color="error" sx={{ p: 2 }}>
                {translate('app.common.load_error')}
              </Typography>
            ) : users.isPending ? (
              <Box sx={{ p: 2, textAlign: 'center' }}>
                <CircularProgress size={24} />
              </Box>
            ) : rows.length === 0 ? (
              <Typography color="text.secondary" sx={{ p: 2 }}>
                {translate('app.members.no_users_found')}
              </Typography>
            ) : (
              <PersonChoices
                people={rows}
                keyOf={(u) => u.id}
                selected={add.selected}
                onSelect={add.setSelected}
                optionTestId="user-option"
                more={users.isFetchingNextPage}
              />
            )}
          </ChoicesBox>
        </>
      }
      after={<ParentBuSelect businessUnits={props.businessUnits} value={parentBu} onChange={setParentBu} />}
    />
  );
};
