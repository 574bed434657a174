import { Title, useRequireAccess, useTranslate } from 'react-admin';
import { Box, Stack } from '@mui/material';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { memberImportScreenMessages } from './messages';
import { useMemberImport } from './useMemberImport';
import { ImportChooseCard } from './ImportChooseCard';
import { ImportReviewCard } from './ImportReviewCard';
import { ImportResultCard } from './ImportResultCard';

const MODULES = [memberImportScreenMessages];

/**
 * The membership CSV import: choose a file, check it (a dry run), review the plan, apply it, and see what was written.
 */
const MemberImportScreen = () => {
  const t = useTranslate();
  useRequireAccess({ action: 'edit', resource: 'clusters' });
  const state = useMemberImport();
  return (
    <Box sx={{ mt: 2 }} data-testid="member-import">
      <Title title={t('app.member_import.title')} />
      <Stack spacing={2}>
        <ImportChooseCard state={state} />
        {state.plan && !state.result && <ImportReviewCard state={state} plan={state.plan} />}
        {state.result && <ImportResultCard result={state.result} onStartOver={state.reset} />}
      </Stack>
    </Box>
  );
};

export const MemberImport = () => (
  <ScreenMessages modules={MODULES}>
    <MemberImportScreen />
  </ScreenMessages>
);
