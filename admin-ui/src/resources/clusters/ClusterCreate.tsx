import { Create, SimpleForm, Toolbar, SaveButton, useTranslate } from 'react-admin';
import { Button } from '@mui/material';
import { Link, useNavigate } from 'react-router-dom';
import { ClusterFields, normalizeCluster } from './ClusterFields';
import { RequireAccess } from '../../components/RequireAccess';
import type { Cluster } from '../../types';
import { recordLabel, useRecordFeedback } from '../../components/useRecordFeedback';

const CreateToolbar = () => {
  const translate = useTranslate();
  return (
    <Toolbar sx={{ gap: 1 }}>
      <SaveButton label="ra.action.create" />
      <Button component={Link} to="/clusters" data-testid="create-cancel">
        {translate('ra.action.cancel')}
      </Button>
    </Toolbar>
  );
};

/** Create mode is always editable; on success the new cluster's edit page opens (branding and members live there). */
const ClusterCreateForm = () => {
  const navigate = useNavigate();
  const feedback = useRecordFeedback('clusters');
  return (
    <Create<Cluster>
      resource="clusters"
      title="resources.clusters.create_title"
      redirect={false}
      transform={normalizeCluster}
      mutationOptions={{
        onSuccess: (data: Partial<Cluster>) => {
          // Only a record the server created (it has an id) is reported as created.
          if (data?.id) feedback.created(recordLabel(data));
          // The router finishes the navigation on its own; nothing here waits for it.
          void navigate(data?.id ? `/clusters/${data.id}/edit` : '/clusters');
        },
        onError: (error: unknown, variables: { data?: { code?: unknown } } | undefined) =>
          feedback.createFailed(recordLabel(variables?.data), error),
      }}
    >
      <SimpleForm toolbar={<CreateToolbar />} defaultValues={{ is_active: true, max_license_bu: null }}>
        <ClusterFields />
      </SimpleForm>
    </Create>
  );
};

/** /clusters/create — nothing of the form shows until the create grant is confirmed. */
export const ClusterCreate = () => (
  <RequireAccess action="create" resource="clusters">
    <ClusterCreateForm />
  </RequireAccess>
);
