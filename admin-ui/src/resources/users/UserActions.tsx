import { useState } from 'react';
import { Confirm, useCanAccess, usePermissions, useTranslate } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Stack, TextField } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import KeyIcon from '@mui/icons-material/Key';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import RemoveModeratorIcon from '@mui/icons-material/RemoveModerator';
import type { Grants, UserAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { useNotice, useReason } from '../../lib/notice';
import { FormDialog, useDialogCall } from '../../components/FormDialog';

type ConfirmKind = 'deactivate' | 'reactivate' | 'remove_super_admin';

/** A new initial password; the API's rule (400) is said under the field and the dialog stays. */
const ResetPasswordDialog = (props: { user: UserAccount; onClose: () => void; onDone: () => void }) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const [password, setPassword] = useState('');
  const call = useDialogCall(() => dataProvider.resetUserPassword(props.user.id, password), props.onDone);

  return (
    <FormDialog
      title={translate('resources.users.reset.title', { name: props.user.username })}
      onClose={props.onClose}
      call={call}
      ready={!!password}
      maxWidth="xs"
      testId="reset-password-dialog"
      submitLabel="resources.users.actions.reset_password"
      submitTestId="reset-password-submit"
    >
      <TextField
        fullWidth
        autoFocus
        type="password"
        autoComplete="new-password"
        label={translate('resources.users.fields.password')}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={!!call.error}
        helperText={call.error || translate('resources.users.reset.hint')}
        inputProps={{ 'data-testid': 'reset-password-input' }}
      />
    </FormDialog>
  );
};

/**
 * The account actions, for `user.manage`: deactivate or reactivate (confirmed), reset the password, unlock sign-in
 * while it is delayed, and, for a super admin caller, remove super admin from a super admin.
 */
export const UserActions = ({ record, onChanged }: { record: UserAccount; onChanged: () => Promise<unknown> }) => {
  const translate = useTranslate();
  const notice = useNotice();
  const problemText = useReason();
  const queryClient = useQueryClient();
  const dataProvider = useAppDataProvider();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'users', record: { id: record.id } });
  const { permissions } = usePermissions<Grants>();
  const [confirming, setConfirming] = useState<ConfirmKind | null>(null);
  const [resetting, setResetting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const name = record.username;
  // Only a super admin may demote one (a super admin holds grant.manage too).
  const callerIsSuperAdmin = !!permissions?.is_super_admin;

  const after = async (message: string) => {
    notice(message, { type: 'success', args: { name } });
    // The account's history and grants count changed with it.
    await queryClient.invalidateQueries({ queryKey: ['auditEvents'] });
    await onChanged();
  };

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const run = async (action: () => Promise<unknown>, message: string) => {
    setBusy(true);
    setFailure('');
    try {
      await action();
      await after(message);
    } catch (e) {
      setFailure(problemText(e));
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };

  if (!canManage) return null;

  const confirmAction: Record<ConfirmKind, () => Promise<void>> = {
    deactivate: () => run(() => dataProvider.deactivateUser(record.id), 'resources.users.done.deactivated'),
    reactivate: () => run(() => dataProvider.reactivateUser(record.id), 'resources.users.done.reactivated'),
    remove_super_admin: () =>
      run(() => dataProvider.revokeSuperAdmin(record.id), 'resources.users.done.super_admin_removed'),
  };

  return (
    <Stack spacing={1} alignItems="flex-end">
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" justifyContent="flex-end">
        {record.is_active ? (
          <Button
            color="error"
            variant="outlined"
            startIcon={<BlockIcon />}
            onClick={() => setConfirming('deactivate')}
            data-testid="user-deactivate"
          >
            {translate('resources.users.actions.deactivate')}
          </Button>
        ) : (
          <Button
            variant="outlined"
            startIcon={<CheckCircleIcon />}
            onClick={() => setConfirming('reactivate')}
            data-testid="user-reactivate"
          >
            {translate('resources.users.actions.reactivate')}
          </Button>
        )}
        <Button
          variant="outlined"
          startIcon={<KeyIcon />}
          onClick={() => setResetting(true)}
          data-testid="user-reset-password"
        >
          {translate('resources.users.actions.reset_password')}
        </Button>
        {record.sign_in_delayed && (
          <Button
            variant="outlined"
            startIcon={<LockOpenIcon />}
            disabled={busy}
            onClick={() => void run(() => dataProvider.unlockUser(record.id), 'resources.users.done.unlocked')}
            data-testid="user-unlock"
          >
            {translate('resources.users.actions.unlock')}
          </Button>
        )}
        {record.is_super_admin && callerIsSuperAdmin && (
          <Button
            variant="outlined"
            color="warning"
            startIcon={<RemoveModeratorIcon />}
            onClick={() => setConfirming('remove_super_admin')}
            data-testid="user-remove-super-admin"
          >
            {translate('resources.users.actions.remove_super_admin')}
          </Button>
        )}
      </Stack>
      {failure && (
        <Alert severity="error" onClose={() => setFailure('')} data-testid="user-action-error">
          {failure}
        </Alert>
      )}
      <Confirm
        isOpen={confirming !== null}
        loading={busy}
        title={confirming ? `resources.users.confirm.${confirming}_title` : ''}
        content={confirming ? `resources.users.confirm.${confirming}_content` : ''}
        translateOptions={{ name }}
        onClose={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) void confirmAction[confirming]();
        }}
      />
      {resetting && (
        <ResetPasswordDialog
          user={record}
          onClose={() => setResetting(false)}
          onDone={() => {
            setResetting(false);
            void after('resources.users.done.password_reset');
          }}
        />
      )}
    </Stack>
  );
};
