import { BooleanInput, NumberInput, TextInput, maxLength, minValue, required, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Grid } from '@mui/material';
import { CapBelowUseWarning } from '../../components/CapBelowUseWarning';

const ALIAS_MAX = 3;
const aliasValidate = maxLength(ALIAS_MAX, 'resources.clusters.validation.alias_too_long');

/** Writable cluster fields; `readOnly` in view mode. `buCount` is what the licence cap is checked against. */
export const ClusterFields = ({ readOnly = false, buCount }: { readOnly?: boolean; buCount?: number | null }) => {
  const translate = useTranslate();
  const alias: unknown = useWatch({ name: 'alias_name' });
  const aliasLength = typeof alias === 'string' ? alias.length : 0;
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextInput source="code" validate={[required(), maxLength(50)]} readOnly={readOnly} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 2 }}>
        {/* Not cut at the limit: a longer alias is shown as typed, with the reason it cannot be saved. */}
        <TextInput
          source="alias_name"
          validate={aliasValidate}
          readOnly={readOnly}
          fullWidth
          helperText={
            readOnly ? false : translate('resources.clusters.alias_help', { count: aliasLength, max: ALIAS_MAX })
          }
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="name" validate={[required(), maxLength(255)]} readOnly={readOnly} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <NumberInput
          source="max_license_bu"
          validate={minValue(0)}
          min={0}
          step={1}
          readOnly={readOnly}
          fullWidth
          placeholder={translate('app.common.unlimited')}
          InputLabelProps={{ shrink: true }}
        />
        {readOnly ? null : (
          <CapBelowUseWarning source="max_license_bu" inUse={buCount} message="resources.clusters.cap_below_use" />
        )}
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <BooleanInput source="is_active" readOnly={readOnly} />
      </Grid>
    </Grid>
  );
};

const blankToNull = (v: unknown) => (v === '' || v === undefined ? null : v);

/** Empty alias and licence cap mean "none" / "unlimited" on the wire. */
export function normalizeCluster(values: Record<string, unknown>): Record<string, unknown> {
  return {
    ...values,
    alias_name: blankToNull(values.alias_name),
    max_license_bu: blankToNull(values.max_license_bu),
    is_active: values.is_active ?? true,
  };
}
