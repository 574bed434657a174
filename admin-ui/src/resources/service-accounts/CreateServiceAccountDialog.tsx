import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { TextField } from '@mui/material';
import type { ServiceAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { FormDialog, useDialogCall } from '../../components/FormDialog';

/** A name and what the account is for; the server's refusal (a name taken, not a valid name) stays in the dialog. */
export const CreateServiceAccountDialog = (props: {
  onClose: () => void;
  onCreated: (account: ServiceAccount) => void;
}) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const call = useDialogCall(
    () => dataProvider.createServiceAccount({ name: name.trim(), description: description.trim() || null }),
    props.onCreated,
  );

  return (
    <FormDialog
      title={translate('service_accounts.create_title')}
      titleId="service-account-create-title"
      onClose={props.onClose}
      call={call}
      ready={name.trim().length >= 3}
      submitLabel="service_accounts.create"
      cancelLabel="service_accounts.cancel"
      submitTestId="service-account-save"
      errorTestId="service-account-create-error"
    >
      <TextField
        label={translate('service_accounts.name')}
        helperText={translate('service_accounts.name_help')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        autoFocus
        inputProps={{ 'data-testid': 'service-account-name', maxLength: 64 }}
      />
      <TextField
        label={translate('service_accounts.description')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        multiline
        minRows={2}
        inputProps={{ 'data-testid': 'service-account-description', maxLength: 500 }}
      />
    </FormDialog>
  );
};
