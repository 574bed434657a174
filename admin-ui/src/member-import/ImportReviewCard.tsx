import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { Alert, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import type { MembershipImportResult } from '../types';
import { ImportPlanTable } from './ImportPlanTable';
import type { MemberImportState } from './useMemberImport';

/** Step 2: the plan of the checked file, what applying it would do with refused rows, and Apply after a yes. */
export const ImportReviewCard = ({ state, plan }: { state: MemberImportState; plan: MembershipImportResult }) => {
  const t = useTranslate();
  const [confirming, setConfirming] = useState(false);
  const { refused, changes, busy } = state;
  const applyLabel = refused > 0 ? 'member_import.apply_valid_rows' : 'member_import.apply';
  return (
    <Card data-testid="import-plan">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {t('member_import.step_review')}
        </Typography>
        <ImportPlanTable result={plan} t={t} />
        {changes === 0 ? (
          <Alert severity="info" sx={{ mt: 2 }}>
            {t('member_import.nothing_to_apply')}
          </Alert>
        ) : (
          refused > 0 && (
            <Alert severity="warning" sx={{ mt: 2 }} data-testid="import-refused-explained">
              {t('member_import.refused_explained', { smart_count: refused })}
            </Alert>
          )
        )}
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <Button
            variant="contained"
            disabled={changes === 0 || busy !== null}
            onClick={() => setConfirming(true)}
            data-testid="import-apply"
          >
            {t(applyLabel)}
          </Button>
          <Button onClick={state.reset} disabled={busy?.kind === 'apply'} data-testid="import-start-over">
            {t('member_import.start_over')}
          </Button>
        </Stack>
        <Confirm
          isOpen={confirming}
          title="member_import.confirm_title"
          content={refused > 0 ? 'member_import.confirm_content_refused' : 'member_import.confirm_content'}
          translateOptions={{ smart_count: changes }}
          confirm={applyLabel}
          onConfirm={() => {
            setConfirming(false);
            state.apply();
          }}
          onClose={() => setConfirming(false)}
        />
      </CardContent>
    </Card>
  );
};
