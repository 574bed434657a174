import { useMemo, useState } from 'react';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { Stack } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { ModeForm, type PageMode } from '../../components/ModeForm';
import { BrandingCard } from '../../components/BrandingCard';
import { RecordLoader } from '../../components/RecordLoader';
import type { BusinessUnit } from '../../types';
import { BusinessUnitSections } from './BusinessUnitSections';
import { BusinessUnitSummary } from './BusinessUnitSummary';
import { BusinessUnitUsersCard } from './BusinessUnitUsersCard';
import { fromFormValues, toFormValues } from './businessUnitForm';
import { HistoryCard } from '../../components/history/HistoryTab';

const BusinessUnitView = ({ record, refetch }: { record: BusinessUnit; refetch: () => Promise<unknown> }) => {
  const translate = useTranslate();
  const [mode, setMode] = useState<PageMode>('view');
  const { canAccess: canEdit } = useCanAccess({ action: 'edit', resource: 'business-units', record });
  const formRecord = useMemo(() => toFormValues(record), [record]);

  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }} data-testid="bu-edit" data-mode={mode}>
      <Title title={translate('resources.business-units.edit_title', { name: record.name })} />
      <BusinessUnitSummary record={record} />
      <ModeForm
        resource="business-units"
        record={formRecord}
        mode={mode}
        onModeChange={setMode}
        canEdit={!!canEdit}
        refetch={refetch}
        transform={(values) => fromFormValues(values, record)}
      >
        <Stack spacing={2}>
          <BusinessUnitSections readOnly={mode === 'view'} dbConnection={record.db_connection} current={record} />
        </Stack>
      </ModeForm>
      <BrandingCard resource="business-units" record={record} canEdit={!!canEdit} />
      <BusinessUnitUsersCard businessUnitId={record.id} clusterId={record.cluster_id ?? ''} />
      <HistoryCard targetType="business_unit" targetId={record.id} />
    </Stack>
  );
};

/**
 * One business unit with its cards, opening in view mode. The grant is asked for on any cluster first, then on the
 * BU's own parent cluster once the record is known: `/business-units/:id` needs the read grant, `…/edit` the update
 * grant.
 */
const BusinessUnitPage = ({ action }: { action: 'show' | 'edit' }) => {
  const { id = '' } = useParams();
  return (
    <RequireAccess action={action} resource="business-units">
      <RecordLoader<BusinessUnit> resource="business-units" id={id}>
        {(record, refetch) => (
          <RequireAccess
            action={action}
            resource="business-units"
            record={{ id: record.id, cluster_id: record.cluster_id }}
          >
            <BusinessUnitView record={record} refetch={refetch} />
          </RequireAccess>
        )}
      </RecordLoader>
    </RequireAccess>
  );
};

/** /business-units/:id — the read view. */
export const BusinessUnitShow = () => <BusinessUnitPage action="show" />;

/** /business-units/:id/edit — the update grant on the BU's parent cluster. */
export const BusinessUnitEdit = () => <BusinessUnitPage action="edit" />;
