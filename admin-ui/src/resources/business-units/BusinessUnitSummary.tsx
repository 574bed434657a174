import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Card, CardContent, Chip, Grid, Stack, Typography } from '@mui/material';
import type { BusinessUnit } from '../../types';
import { StatusChip } from '../../components/StatusChip';
import { formatCountOfMax } from '../../lib/licence';

const Item = ({ label, children }: { label: string; children: ReactNode }) => (
  <Grid size={{ xs: 6, sm: 4, md: 2 }}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="body2" component="div">
      {children}
    </Typography>
  </Grid>
);

/** The business unit at a glance, above its 34 fields: who it is, where it belongs, and how it counts and prices. */
export const BusinessUnitSummary = ({ record }: { record: BusinessUnit }) => {
  const translate = useTranslate();
  const f = (field: string) => translate(`resources.business-units.fields.${field}`);
  const currency = record.defaultCurrency;
  return (
    <Card data-testid="bu-summary">
      <CardContent>
        <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap sx={{ mb: 2 }}>
          <Typography variant="h5" component="h1">
            {record.name}
          </Typography>
          <Chip size="small" variant="outlined" label={record.code} />
          <StatusChip active={record.is_active} />
          {record.is_hq ? <Chip size="small" color="primary" label={f('is_hq')} /> : null}
        </Stack>
        <Grid container spacing={2}>
          <Item label={f('cluster_id')}>{record.cluster_name ?? '—'}</Item>
          <Item label={f('users_count')}>{formatCountOfMax(record.users_count, record.max_license_users)}</Item>
          <Item label={f('default_currency_id')}>
            {currency ? `${currency.code ?? ''} — ${currency.name ?? ''}` : '—'}
          </Item>
          <Item label={f('calculation_method')}>
            {record.calculation_method
              ? translate(`resources.business-units.calculation_methods.${record.calculation_method}`)
              : '—'}
          </Item>
          <Item label={f('timezone')}>{record.timezone || '—'}</Item>
          <Item label={f('hotel_name')}>{record.hotel_name || '—'}</Item>
        </Grid>
      </CardContent>
    </Card>
  );
};
