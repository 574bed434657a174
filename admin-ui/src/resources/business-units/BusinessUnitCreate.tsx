import { useMemo } from 'react';
import { Create, SaveButton, SimpleForm, Toolbar, useDataProvider, useTranslate } from 'react-admin';
import { Button, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { BusinessUnitSections } from './BusinessUnitSections';
import { fromFormValues, newBusinessUnitValues } from './businessUnitForm';
import { precheckBuLicence } from './licencePrecheck';
import { RequireAccess } from '../../components/RequireAccess';
import type { BusinessUnit, BusinessUnitInput } from '../../types';
import { recordLabel, useRecordFeedback } from '../../components/useRecordFeedback';
import { useNotice } from '../../lib/notice';

const CreateToolbar = () => {
  const translate = useTranslate();
  return (
    <Toolbar sx={{ gap: 1 }}>
      <SaveButton label="ra.action.create" />
      <Button component={Link} to="/business-units">
        {translate('ra.action.cancel')}
      </Button>
    </Toolbar>
  );
};

/** /business-units/create[?cluster_id=] — the licence pre-check blocks the submit at the cap, with no create request. */
const BusinessUnitCreateForm = () => {
  const [params] = useSearchParams();
  const clusterId = params.get('cluster_id');
  const defaults = useMemo(() => newBusinessUnitValues(clusterId), [clusterId]);
  const dataProvider = useDataProvider();
  const notice = useNotice();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const feedback = useRecordFeedback('business-units');

  const submit = async (values: Record<string, unknown>) => {
    try {
      const blocked = await precheckBuLicence(dataProvider, String(values.cluster_id));
      if (blocked) {
        notice(blocked, { type: 'error' });
        return { cluster_id: blocked };
      }
      const { data } = await dataProvider.create<BusinessUnitInput, BusinessUnit>('business-units', {
        data: fromFormValues(values),
      });
      // Cached BU lists (a cluster's BU card, its licence indicator) and cluster counts are now wrong:
      // drop them so no page shows the old count while refetching.
      queryClient.removeQueries({ queryKey: ['business-units', 'getList'] });
      void queryClient.invalidateQueries({ queryKey: ['clusters'] });
      // Only a record the server created (it has an id) is reported as created.
      if (data?.id) feedback.created(recordLabel(data) || recordLabel(values));
      // The router finishes the navigation on its own; nothing here waits for it.
      void navigate(data?.id ? `/business-units/${data.id}/edit` : '/business-units');
    } catch (e) {
      feedback.createFailed(recordLabel(values), e);
      return (e as { body?: { errors?: Record<string, string> } }).body?.errors;
    }
    return undefined;
  };

  return (
    <Create resource="business-units" title="resources.business-units.create_title">
      <SimpleForm defaultValues={defaults} onSubmit={submit} toolbar={<CreateToolbar />} key={clusterId ?? ''}>
        <Stack spacing={2} sx={{ width: '100%' }}>
          <BusinessUnitSections readOnly={false} dbConnection={null} />
        </Stack>
      </SimpleForm>
    </Create>
  );
};

export const BusinessUnitCreate = () => (
  <RequireAccess action="create" resource="business-units">
    <BusinessUnitCreateForm />
  </RequireAccess>
);
