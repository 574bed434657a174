import { useState } from 'react';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { Card, CardContent, CardHeader, Stack } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { ModeForm, type PageMode } from '../../components/ModeForm';
import { BrandingCard } from '../../components/BrandingCard';
import { RecordLoader } from '../../components/RecordLoader';
import type { Cluster } from '../../types';
import { ClusterFields, normalizeCluster } from './ClusterFields';
import { ClusterBusinessUnitsCard } from './ClusterBusinessUnitsCard';
import { ClusterUsersCard } from './ClusterUsersCard';
import { HistoryCard } from '../../components/history/HistoryTab';

const ClusterView = ({ data, refetch }: { data: Cluster; refetch: () => Promise<unknown> }) => {
  const translate = useTranslate();
  const [mode, setMode] = useState<PageMode>('view');
  const { canAccess: canEdit } = useCanAccess({ action: 'edit', resource: 'clusters', record: { id: data.id } });

  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }} data-testid="cluster-edit" data-mode={mode}>
      <Title title={translate('resources.clusters.edit_title', { name: data.name })} />
      <Card>
        <CardHeader title={translate('resources.clusters.cards.details')} subheader={data.code} />
        <CardContent>
          <ModeForm
            resource="clusters"
            record={data}
            mode={mode}
            onModeChange={setMode}
            canEdit={!!canEdit}
            refetch={refetch}
            transform={normalizeCluster}
          >
            <ClusterFields readOnly={mode === 'view'} buCount={data.bu_count} />
          </ModeForm>
        </CardContent>
      </Card>
      <BrandingCard resource="clusters" record={data} canEdit={!!canEdit} />
      <ClusterBusinessUnitsCard clusterId={data.id} maxLicenseBu={data.max_license_bu} />
      <ClusterUsersCard clusterId={data.id} />
      <HistoryCard targetType="cluster" targetId={data.id} />
    </Stack>
  );
};

/**
 * One cluster with its cards, opening in view mode; Edit switches the page to edit mode for those who may update the
 * cluster. `/clusters/:id` needs the read grant on the cluster, `/clusters/:id/edit` the update grant.
 */
const ClusterPage = ({ action }: { action: 'show' | 'edit' }) => {
  const { id = '' } = useParams();
  return (
    <RequireAccess action={action} resource="clusters" record={{ id }}>
      <RecordLoader<Cluster> resource="clusters" id={id}>
        {(record, refetch) => <ClusterView data={record} refetch={refetch} />}
      </RecordLoader>
    </RequireAccess>
  );
};

/** /clusters/:id — the read view. */
export const ClusterShow = () => <ClusterPage action="show" />;

/** /clusters/:id/edit — guarded by the update grant on this cluster. */
export const ClusterEdit = () => <ClusterPage action="edit" />;
