import { useTranslate } from 'react-admin';
import { Stack, Typography } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';

/**
 * Allow and deny codes that name no live business unit: stored as sent (the unit may come later), but a typo there
 * silently changes what prints, so they are called out wherever a mapping is shown.
 */
export const UnknownCodesWarning = ({ codes }: { codes: readonly string[] | null | undefined }) => {
  const translate = useTranslate();
  if (!codes || codes.length === 0) return null;
  return (
    <Stack
      direction="row"
      spacing={0.5}
      alignItems="center"
      sx={{ color: 'warning.dark' }}
      data-testid="unknown-bu-codes"
      role="note"
    >
      <WarningAmberIcon fontSize="small" aria-hidden />
      <Typography variant="caption" component="span">
        {translate('resources.print-template-mappings.unknown_codes', {
          codes: codes.join(', '),
          smart_count: codes.length,
        })}
      </Typography>
    </Stack>
  );
};
