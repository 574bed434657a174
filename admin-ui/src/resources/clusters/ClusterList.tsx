import { useTranslate } from 'react-admin';
import { Chip, Tooltip } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { Cluster } from '../../types';
import { AdminList } from '../../components/list/AdminList';
import type { ListColumn } from '../../components/list/ListTable';
import { NameCell } from '../../components/list/NameCell';
import { Thumbnail } from '../../components/Thumbnail';
import { StatusChip } from '../../components/StatusChip';
import { formatCountOfMax } from '../../lib/licence';

/** Users count, marked when it has reached the sum of the BU user licences. */
const UsersCount = ({ record }: { record: Cluster }) => {
  const translate = useTranslate();
  const count = Number(record.users_count ?? 0);
  const max = record.total_max_license_users;
  const atLimit = max !== null && max !== undefined && count >= max;
  if (!atLimit) return <>{count}</>;
  return (
    <Tooltip title={translate('resources.clusters.users_at_limit', { max })}>
      <Chip
        size="small"
        color="warning"
        icon={<WarningAmberIcon />}
        label={`${count}/${max}`}
        data-testid="users-at-limit"
      />
    </Tooltip>
  );
};

const columns: ListColumn<Cluster>[] = [
  {
    key: 'logo',
    label: 'resources.clusters.fields.logo',
    render: (r) => <Thumbnail record={r} />,
    width: 56,
    hideBelow: 'lg',
  },
  { key: 'code', label: 'resources.clusters.fields.code', sortField: 'code', render: (r) => r.code, opensRecord: true },
  { key: 'name', label: 'resources.clusters.fields.name', sortField: 'name', render: (r) => <NameCell record={r} /> },
  {
    key: 'is_active',
    label: 'resources.clusters.fields.is_active',
    sortField: 'is_active',
    render: (r) => <StatusChip active={r.is_active} />,
  },
  {
    key: 'bu_count',
    label: 'resources.clusters.fields.bu_count',
    render: (r) => formatCountOfMax(r.bu_count, r.max_license_bu),
  },
  { key: 'users_count', label: 'resources.clusters.fields.users_count', render: (r) => <UsersCount record={r} /> },
];

export const ClusterList = () => (
  <AdminList
    resource="clusters"
    title="resources.clusters.name"
    columns={columns}
    createPath="/clusters/create"
    showPath={(r) => `/clusters/${r.id}`}
    editPath={(r) => `/clusters/${r.id}/edit`}
  />
);
