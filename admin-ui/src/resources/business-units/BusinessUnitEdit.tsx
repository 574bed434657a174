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
import { BusinessUnitUsersCard } from './BusinessUnitUsersCard';
import { fromFormValues, toFormValues } from './businessUnitForm';

const BusinessUnitEditView = ({ record, refetch }: { record: BusinessUnit; refetch: () => Promise<unknown> }) => {
  const translate = useTranslate();
  const [mode, setMode] = useState<PageMode>('view');
  const { canAccess: canEdit } = useCanAccess({ action: 'edit', resource: 'business-units', record });
  const formRecord = useMemo(() => toFormValues(record), [record]);

  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }} data-testid="bu-edit" data-mode={mode}>
      <Title title={translate('resources.business-units.edit_title', { name: record.name })} />
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
      <BrandingCard
        resource="business-units"
        recordId={record.id}
        logoUrl={record.logo?.url}
        avatarUrl={record.avatar?.url}
        enabled={mode === 'edit'}
      />
      <BusinessUnitUsersCard businessUnitId={record.id} clusterId={record.cluster_id ?? ''} />
    </Stack>
  );
};

/** /business-units/:id/edit — the update grant somewhere first, then on the BU's own cluster. */
export const BusinessUnitEdit = () => {
  const { id = '' } = useParams();
  return (
    <RequireAccess action="edit" resource="business-units">
      <RecordLoader<BusinessUnit> resource="business-units" id={id}>
        {(record, refetch) => (
          // The edit grant is checked against the BU's parent cluster once the record is known.
          <RequireAccess action="edit" resource="business-units" record={{ id: record.id, cluster_id: record.cluster_id }}>
            <BusinessUnitEditView record={record} refetch={refetch} />
          </RequireAccess>
        )}
      </RecordLoader>
    </RequireAccess>
  );
};
