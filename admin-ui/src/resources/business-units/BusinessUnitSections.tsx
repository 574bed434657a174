import type { ReactNode } from 'react';
import {
  BooleanInput,
  NumberInput,
  SelectInput,
  TextInput,
  email,
  maxLength,
  minValue,
  required,
  useGetList,
  useTranslate,
} from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Grid, Stack, TextField } from '@mui/material';
import type { BusinessUnit, Cluster, Currency } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { prettyJsonString, NUMBER_FORMAT_FIELDS } from '../../lib/jsonFormat';
import { CALCULATION_METHODS } from './businessUnitForm';
import { BusinessUnitSection as Section } from './BusinessUnitSection';
import { ConfigSection } from './ConfigSection';
import { CapBelowUseWarning } from '../../components/CapBelowUseWarning';
import { NumberFormatEditor } from './NumberFormatEditor';

const currencyLabel = (c: Pick<Currency, 'code' | 'name' | 'symbol'>) =>
  `${c.code ?? ''} — ${c.name ?? ''} (${c.symbol ?? ''})`;

/** Keeps the stored value selectable while the options load or when it is no longer listed. */
function withCurrent(choices: { id: string; name: string }[], id?: string | null, name?: string | null) {
  if (!id || choices.some((c) => c.id === id)) return choices;
  return [{ id, name: name ?? id }, ...choices];
}

const Cell = ({ md = 6, children }: { md?: number; children: ReactNode }) => (
  <Grid size={{ xs: 12, md }}>{children}</Grid>
);

/** The nine always-open sections of the BU form (34 fields), one under the other; `readOnly` in view mode. */
export const BusinessUnitSections = ({
  readOnly,
  dbConnection,
  current,
}: {
  readOnly: boolean;
  dbConnection?: unknown;
  /** The stored record, so its cluster and currency show even when they are missing from the option lists. */
  current?: Pick<
    BusinessUnit,
    'cluster_id' | 'cluster_name' | 'default_currency_id' | 'defaultCurrency' | 'users_count'
  >;
}) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const clusters = useGetList<Cluster>('clusters', {
    pagination: { page: 1, perPage: -1 },
    sort: { field: 'name', order: 'ASC' },
  });
  const currencies = useQuery({
    queryKey: ['currencies'],
    queryFn: () => dataProvider.getCurrencies(),
    staleTime: 5 * 60_000,
  });
  const clusterChoices = withCurrent(
    (clusters.data ?? []).map((c) => ({ id: c.id, name: c.name })),
    current?.cluster_id,
    current?.cluster_name,
  );
  const currencyChoices = withCurrent(
    (currencies.data ?? []).map((c) => ({ id: c.id, name: currencyLabel(c) })),
    current?.default_currency_id,
    current?.defaultCurrency ? currencyLabel(current.defaultCurrency) : undefined,
  );
  const text = (source: string, md = 6, extra: Record<string, unknown> = {}) => (
    <Cell md={md} key={source}>
      <TextInput source={source} readOnly={readOnly} fullWidth {...extra} />
    </Cell>
  );

  return (
    <Stack spacing={2}>
      <Section id="general">
        <Grid container spacing={2}>
          <Cell>
            {/* Remounted once loaded: the choices list lags one render behind new choices and MUI warns meanwhile. */}
            <SelectInput
              key={`clusters-${clusterChoices.length}`}
              source="cluster_id"
              choices={clusters.isPending && clusterChoices.length === 0 ? undefined : clusterChoices}
              translateChoice={false}
              isPending={clusters.isPending && clusterChoices.length === 0}
              validate={required()}
              readOnly={readOnly}
              fullWidth
            />
          </Cell>
          {text('code', 3, { validate: [required(), maxLength(50)] })}
          {text('alias_name', 3)}
          {text('name', 12, { validate: [required(), maxLength(255)] })}
          {text('description', 12, { multiline: true, minRows: 2 })}
          <Cell md={4}>
            <NumberInput
              source="max_license_users"
              min={0}
              step={1}
              validate={minValue(0)}
              readOnly={readOnly}
              fullWidth
              placeholder={translate('app.common.unlimited')}
              InputLabelProps={{ shrink: true }}
            />
            {readOnly ? null : (
              <CapBelowUseWarning
                source="max_license_users"
                inUse={current?.users_count}
                message="resources.business-units.cap_below_use"
              />
            )}
          </Cell>
          <Cell md={4}>
            <BooleanInput source="is_hq" readOnly={readOnly} />
          </Cell>
          <Cell md={4}>
            <BooleanInput source="is_active" readOnly={readOnly} />
          </Cell>
        </Grid>
      </Section>
      {(['hotel', 'company'] as const).map((group) => (
        <Section id={group} key={group}>
          <Grid container spacing={2}>
            {text(`${group}_name`)}
            {text(`${group}_tel`, 3)}
            {text(`${group}_email`, 3, { validate: email() })}
            {text(`${group}_address`, 9)}
            {text(`${group}_zip_code`, 3)}
          </Grid>
        </Section>
      ))}
      <Section id="tax">
        <Grid container spacing={2}>
          {text('tax_no')}
          {text('branch_no')}
        </Grid>
      </Section>
      <Section id="datetime">
        <Grid container spacing={2}>
          {text('date_format', 4, { placeholder: 'YYYY-MM-DD' })}
          {text('date_time_format', 4, { placeholder: 'YYYY-MM-DD HH:mm:ss' })}
          {text('time_format', 4, { placeholder: 'HH:mm' })}
          {text('long_time_format', 4, { placeholder: 'HH:mm:ss.SSS' })}
          {text('short_time_format', 4, { placeholder: 'HH:mm' })}
          {text('timezone', 4, { placeholder: 'Asia/Bangkok' })}
        </Grid>
      </Section>
      <Section id="number_formats">
        <Grid container spacing={2}>
          {NUMBER_FORMAT_FIELDS.map((f) => (
            <Cell key={f}>
              <NumberFormatEditor source={f} readOnly={readOnly} />
            </Cell>
          ))}
        </Grid>
      </Section>
      <Section id="calculation">
        <Grid container spacing={2}>
          <Cell>
            <SelectInput
              source="calculation_method"
              choices={CALCULATION_METHODS.map((m) => ({
                id: m,
                name: `resources.business-units.calculation_methods.${m}`,
              }))}
              readOnly={readOnly}
              fullWidth
              emptyText="app.common.none"
            />
          </Cell>
          <Cell>
            <SelectInput
              key={`currencies-${currencyChoices.length}`}
              source="default_currency_id"
              choices={currencies.isPending && currencyChoices.length === 0 ? undefined : currencyChoices}
              translateChoice={false}
              isPending={currencies.isPending && currencyChoices.length === 0}
              readOnly={readOnly}
              fullWidth
              emptyText="app.common.none"
            />
          </Cell>
        </Grid>
      </Section>
      <Section id="config">
        <ConfigSection readOnly={readOnly} />
      </Section>
      <Section id="db_connection">
        <TextField
          label={translate('resources.business-units.fields.db_connection')}
          value={prettyJsonString(dbConnection)}
          fullWidth
          multiline
          minRows={3}
          InputProps={{ readOnly: true, sx: { fontFamily: 'monospace' } }}
          helperText={translate('resources.business-units.db_connection_hint')}
          data-testid="db-connection"
        />
      </Section>
    </Stack>
  );
};
