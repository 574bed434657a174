import { useCanAccess, useTranslate } from 'react-admin';
import { Button, Chip, IconButton, Link as MuiLink, Stack, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Link, useNavigate } from 'react-router-dom';
import { isAtLicenceLimit, formatCountOfMax } from '../../lib/licence';
import { StatusChip } from '../../components/StatusChip';
import { CardTable, TableCard, type CardColumn } from '../../components/card-table';
import type { BusinessUnit } from '../../types';
import { useClusterBusinessUnits } from './useClusterBusinessUnits';
const RowEdit = ({ row }: { row: BusinessUnit }) => {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ action: 'edit', resource: 'business-units', record: row });
  if (!canAccess) return null;
  return (
    <Tooltip title={translate('ra.action.edit')}>
      <IconButton
        component={Link}
        to={`/business-units/${row.id}/edit`}
        size="small"
        aria-label={translate('ra.action.edit')}
      >
        <EditIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
};

/**
 * The cluster's BUs by name, the 'N of M licensed' indicator, refresh, and Add (disabled at the cap). A row opens the
 * BU's read view; its Edit icon is there for those who may update it.
 */
export const ClusterBusinessUnitsCard = ({
  clusterId,
  maxLicenseBu,
}: {
  clusterId: string;
  maxLicenseBu: number | null | undefined;
}) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const { data, isPending, isFetching, error, refetch } = useClusterBusinessUnits(clusterId);
  // The id only keys react-admin's canAccess cache apart from the cluster-less check; the grant is resolved on cluster_id.
  const { canAccess: canCreate } = useCanAccess({
    action: 'create',
    resource: 'business-units',
    record: { id: `new-in-${clusterId}`, cluster_id: clusterId },
  });
  const count = data.length;
  const atCap = isAtLicenceLimit(count, maxLicenseBu);

  const columns: CardColumn<BusinessUnit>[] = [
    {
      id: 'code',
      label: translate('resources.business-units.fields.code'),
      render: (bu) => (
        <MuiLink component={Link} to={`/business-units/${bu.id}`} underline="hover" color="inherit">
          {bu.code}
        </MuiLink>
      ),
    },
    { id: 'name', label: translate('resources.business-units.fields.name'), render: (bu) => bu.name },
    {
      id: 'is_active',
      label: translate('resources.business-units.fields.is_active'),
      render: (bu) => <StatusChip active={bu.is_active} />,
    },
    {
      id: 'users_count',
      label: translate('resources.business-units.fields.users_count'),
      render: (bu) => formatCountOfMax(bu.users_count, bu.max_license_users),
    },
  ];

  return (
    <TableCard
      testId="cluster-bu-card"
      title={translate('resources.clusters.cards.business_units')}
      refreshing={isFetching && !isPending}
      action={
        <Stack direction="row" spacing={1} alignItems="center">
          {maxLicenseBu !== null && maxLicenseBu !== undefined && (
            <Chip
              size="small"
              color={atCap ? 'warning' : 'default'}
              data-testid="bu-licence-indicator"
              label={translate('resources.clusters.licensed', { count, max: maxLicenseBu })}
            />
          )}
          <Tooltip title={translate('ra.action.refresh')}>
            <IconButton
              onClick={() => void refetch()}
              aria-label={translate('ra.action.refresh')}
              data-testid="bu-refresh"
            >
              <RefreshIcon />
            </IconButton>
          </Tooltip>
          {canCreate && (
            <Tooltip title={atCap ? translate('resources.clusters.bu_cap_reached') : ''}>
              <span>
                {/* At the cap a real disabled button, not a link: nothing to follow, and assistive technology says so. */}
                {atCap ? (
                  <Button variant="contained" size="small" startIcon={<AddIcon />} disabled data-testid="bu-add">
                    {translate('ra.action.add')}
                  </Button>
                ) : (
                  <Button
                    component={Link}
                    to={`/business-units/create?cluster_id=${encodeURIComponent(clusterId)}`}
                    variant="contained"
                    size="small"
                    startIcon={<AddIcon />}
                    data-testid="bu-add"
                  >
                    {translate('ra.action.add')}
                  </Button>
                )}
              </span>
            </Tooltip>
          )}
        </Stack>
      }
    >
      <CardTable<BusinessUnit>
        rows={isPending ? undefined : data}
        columns={columns}
        loading={isPending}
        error={error}
        onRetry={() => void refetch()}
        empty={translate('resources.clusters.no_business_units')}
        emptyTestId="cluster-bu-empty"
        rowTestId="cluster-bu-row"
        actions={(bu) => <RowEdit row={bu} />}
        actionsLabel={translate('ra.action.edit')}
        onRowClick={(bu) => void navigate(`/business-units/${bu.id}`)}
      />
    </TableCard>
  );
};
