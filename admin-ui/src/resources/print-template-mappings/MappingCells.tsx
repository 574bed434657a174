import { Box, Chip, Stack, Tooltip, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import StarIcon from '@mui/icons-material/Star';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { useTranslate } from 'react-admin';
import type { PrintTemplateMapping as Mapping } from '../../types';

/** A mapping's business-unit codes as chips; a code that names no live business unit is marked. */
export const Codes = ({
  codes,
  unknown,
  empty,
}: {
  codes: string[] | null;
  unknown: readonly string[];
  empty: string;
}) => {
  const translate = useTranslate();
  if (!codes || codes.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate(empty)}
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {codes.map((c) =>
        unknown.includes(c) ? (
          <Tooltip key={c} title={translate('resources.print-template-mappings.unknown_code')}>
            <Chip
              label={c}
              size="small"
              color="warning"
              variant="outlined"
              icon={<WarningAmberIcon />}
              aria-label={`${c}: ${translate('resources.print-template-mappings.unknown_code')}`}
            />
          </Tooltip>
        ) : (
          <Chip key={c} label={c} size="small" />
        ),
      )}
    </Stack>
  );
};

export const TemplateCell = ({ mapping }: { mapping: Mapping }) => {
  const translate = useTranslate();
  if (!mapping.template_name) {
    return (
      <Stack direction="row" spacing={0.5} alignItems="center" color="warning.dark">
        <WarningAmberIcon fontSize="small" aria-hidden />
        <span>{translate('resources.print-template-mappings.missing_template')}</span>
      </Stack>
    );
  }
  const mismatch = mapping.template_group !== mapping.document_type;
  const mismatchText = translate('resources.print-template-mappings.group_mismatch', {
    group: mapping.template_group ?? '',
    document_type: mapping.document_type,
  });
  return (
    <Stack direction="row" spacing={0.5} alignItems="center">
      <span>{mapping.template_name}</span>
      {mismatch ? (
        <Tooltip title={mismatchText}>
          <WarningAmberIcon fontSize="small" color="warning" titleAccess={mismatchText} />
        </Tooltip>
      ) : null}
    </Stack>
  );
};

/** The Default column: a star for the default mapping, and the same in words for screen readers. */
export const DefaultMark = ({ isDefault }: { isDefault: boolean }) => {
  const translate = useTranslate();
  const words = translate(
    isDefault ? 'resources.print-template-mappings.default_yes' : 'resources.print-template-mappings.default_no',
  );
  return (
    <>
      {isDefault ? <StarIcon fontSize="small" color="warning" aria-hidden data-testid="default-star" /> : null}
      <Box component="span" sx={visuallyHidden}>
        {words}
      </Box>
    </>
  );
};
