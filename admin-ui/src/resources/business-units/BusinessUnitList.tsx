import type { BusinessUnit } from '../../types';
import { AdminList } from '../../components/list/AdminList';
import type { ListColumn } from '../../components/list/ListTable';
import { NameCell } from '../../components/list/NameCell';
import { Thumbnail } from '../../components/Thumbnail';
import { StatusChip } from '../../components/StatusChip';

const columns: ListColumn<BusinessUnit>[] = [
  {
    key: 'logo',
    label: 'resources.business-units.fields.logo',
    render: (r) => <Thumbnail record={r} />,
    width: 56,
    hideBelow: 'lg',
  },
  {
    key: 'code',
    label: 'resources.business-units.fields.code',
    sortField: 'code',
    render: (r) => r.code,
    opensRecord: true,
  },
  {
    key: 'name',
    label: 'resources.business-units.fields.name',
    sortField: 'name',
    render: (r) => <NameCell record={r} />,
  },
  {
    key: 'alias_name',
    label: 'resources.business-units.fields.alias_name',
    sortField: 'alias_name',
    render: (r) => r.alias_name,
    hideBelow: 'lg',
  },
  {
    key: 'cluster_name',
    label: 'resources.business-units.fields.cluster_name',
    sortField: 'cluster_name',
    render: (r) => r.cluster_name,
  },
  {
    key: 'is_active',
    label: 'resources.business-units.fields.is_active',
    sortField: 'is_active',
    render: (r) => <StatusChip active={r.is_active} />,
  },
];

export const BusinessUnitList = () => (
  <AdminList
    resource="business-units"
    title="resources.business-units.name"
    columns={columns}
    createPath="/business-units/create"
    showPath={(r) => `/business-units/${r.id}`}
    editPath={(r) => `/business-units/${r.id}/edit`}
  />
);
