import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { Paper, Stack, Typography } from '@mui/material';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { BU_SECTIONS } from './businessUnitForm';

export type SectionId = keyof typeof BU_SECTIONS;

/**
 * One always-open group of the business unit form, titled as a heading, so every field (and every error, a server
 * validation problem included) is in sight without unfolding anything.
 */
export const BusinessUnitSection = ({ id, children }: { id: SectionId; children: ReactNode }) => {
  const translate = useTranslate();
  const { errors } = useFormState();
  const fields: readonly string[] = BU_SECTIONS[id];
  const hasError = fields.some((f) => f in errors);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={`bu-section-${id}-header`}
      data-testid={`bu-section-${id}`}
      sx={{ p: { xs: 1.5, sm: 2 } }}
    >
      <Stack direction="row" spacing={1} alignItems="baseline" sx={{ mb: 2 }} flexWrap="wrap" useFlexGap>
        <Typography variant="subtitle1" component="h2" id={`bu-section-${id}-header`} sx={{ fontWeight: 600 }}>
          {translate(`resources.business-units.sections.${id}`)}
        </Typography>
        <Typography variant="body2" color="text.secondary" component="span">
          {translate('resources.business-units.section_fields', { smart_count: fields.length })}
        </Typography>
        {hasError ? (
          <ErrorOutlineIcon
            color="error"
            fontSize="small"
            sx={{ alignSelf: 'center' }}
            titleAccess={translate('resources.business-units.section_has_errors')}
          />
        ) : null}
      </Stack>
      {children}
    </Paper>
  );
};
