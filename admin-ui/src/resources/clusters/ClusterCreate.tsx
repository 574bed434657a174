import { Create, SimpleForm, Toolbar, SaveButton, useNotify, useTranslate } from 'react-admin';
import { Button } from '@mui/material';
import { Link, useNavigate } from 'react-router-dom';
import { ClusterFields, normalizeCluster } from './ClusterFields';
import { RequireAccess } from '../../components/RequireAccess';

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
  const notify = useNotify();
  return (
    <Create
      resource="clusters"
      title="resources.clusters.create_title"
      redirect={false}
      transform={normalizeCluster}
      mutationOptions={{
        onSuccess: (data: { id?: unknown }) => {
          notify('ra.notification.created', { type: 'success', messageArgs: { smart_count: 1 } });
          navigate(data?.id ? `/clusters/${String(data.id)}/edit` : '/clusters');
        },
      }}
    >
      <SimpleForm toolbar={<CreateToolbar />} defaultValues={{ is_active: true, max_license_bu: null }}>
        <ClusterFields />
      </SimpleForm>
    </Create>
  );
};

/** /clusters/new — nothing of the form shows until the create grant is confirmed. */
export const ClusterCreate = () => (
  <RequireAccess action="create" resource="clusters">
    <ClusterCreateForm />
  </RequireAccess>
);
