import { BooleanInput, NumberInput, TextInput, maxLength, minValue, required, useTranslate } from 'react-admin';
import { Grid } from '@mui/material';

/** Writable cluster fields; `readOnly` in view mode. */
export const ClusterFields = ({ readOnly = false }: { readOnly?: boolean }) => {
  const translate = useTranslate();
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextInput source="code" validate={[required(), maxLength(50)]} readOnly={readOnly} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 2 }}>
        <TextInput
          source="alias_name"
          validate={maxLength(3)}
          readOnly={readOnly}
          fullWidth
          inputProps={{ maxLength: 3 }}
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
