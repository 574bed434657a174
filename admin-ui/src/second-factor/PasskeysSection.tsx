import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Box, Button, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import type { Passkey, SecondFactorEnrolled } from '../dataProvider/methods/secondFactors';
import { CardTable, type CardColumn } from '../components/card-table';
import { DateTimeText } from '../components/DateTimeText';
import { useNotice } from '../lib/notice';
import { FactorDialog } from './FactorDialog';
import { PasskeySetup } from './PasskeySetup';

/** The caller's passkeys: each named, with when it was added and last used; added and removed here. */
export const PasskeysSection = (props: {
  passkeys: readonly Passkey[] | undefined;
  loading: boolean;
  onChanged: () => Promise<unknown>;
  onEnrolled: (result: SecondFactorEnrolled) => void;
}) => {
  const translate = useTranslate();
  const notice = useNotice();
  const dataProvider = useAppDataProvider();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);

  const remove = useMutation({
    mutationFn: (p: Passkey) => dataProvider.removePasskey(p.id),
    onSuccess: (_, p) => notice('second_factor.passkey.removed', { type: 'success', args: { name: p.name } }),
    onError: (error, p) =>
      notice('second_factor.passkey.remove_failed', { type: 'error', args: { name: p.name }, error }),
    onSettled: () => {
      setRemoving(null);
      return props.onChanged();
    },
  });

  const columns: CardColumn<Passkey>[] = [
    { id: 'name', label: translate('second_factor.passkey.name'), render: (p) => p.name },
    {
      id: 'created_at',
      label: translate('second_factor.card.added'),
      render: (p) => <DateTimeText value={p.created_at} />,
      hideBelow: 'sm',
    },
    {
      id: 'last_used_at',
      label: translate('second_factor.card.last_used'),
      render: (p) => (p.last_used_at ? <DateTimeText value={p.last_used_at} /> : translate('second_factor.card.never')),
    },
  ];

  return (
    <Box data-testid="passkeys-section">
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle1" component="h3">
          {translate('second_factor.kinds.passkeys')}
        </Typography>
        <Button size="small" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
          {translate('second_factor.passkey.add')}
        </Button>
      </Stack>
      <CardTable<Passkey>
        rows={props.passkeys}
        loading={props.loading}
        columns={columns}
        rowKey={(p) => p.id}
        empty={translate('second_factor.passkey.none')}
        emptyTestId="passkeys-empty"
        rowTestId="passkey-row"
        ariaLabel={translate('second_factor.kinds.passkeys')}
        actionsLabel={translate('second_factor.card.actions')}
        actions={(p) => (
          <Button
            size="small"
            color="error"
            aria-label={translate('second_factor.passkey.remove_label', { name: p.name })}
            onClick={() => setRemoving(p)}
            disabled={remove.isPending}
          >
            {translate('second_factor.card.remove')}
          </Button>
        )}
      />
      {adding && (
        <FactorDialog title="second_factor.passkey.add_title" testId="passkey-dialog" onClose={() => setAdding(false)}>
          <PasskeySetup
            onCancel={() => setAdding(false)}
            onEnrolled={(result) => {
              setAdding(false);
              notice('second_factor.passkey.added', { type: 'success' });
              props.onEnrolled(result);
            }}
          />
        </FactorDialog>
      )}
      <Confirm
        isOpen={removing !== null}
        loading={remove.isPending}
        title="second_factor.passkey.remove_title"
        content="second_factor.passkey.remove_content"
        translateOptions={{ name: removing?.name ?? '' }}
        onConfirm={() => removing && remove.mutate(removing)}
        onClose={() => setRemoving(null)}
      />
    </Box>
  );
};
