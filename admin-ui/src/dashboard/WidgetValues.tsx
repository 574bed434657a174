import { Alert, Box, Button, CircularProgress, MenuItem, Stack, TextField, Typography } from '@mui/material';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import { lazy, Suspense, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { CategoricalPoint } from '../types';
import { useFormat } from '../lib/format';
import { useDatasetText } from './datasetText';
import { useDatasetValues } from './queries';

// The charts (and their library) load with the first card that shows one.
const CategoricalChart = lazy(async () => ({ default: (await import('./WidgetCharts')).CategoricalChart }));
const KpiGauge = lazy(async () => ({ default: (await import('./WidgetCharts')).KpiGauge }));

const ChartLoading = () => {
  const translate = useTranslate();
  return (
    <Box display="flex" justifyContent="center" alignItems="center" minHeight={80}>
      <CircularProgress size={28} aria-label={translate('dashboard.card.loading')} />
    </Box>
  );
};

/** A round upper bound for a gauge: the first of 1, 2, 5 × 10ⁿ at or above every value shown. */
export function gaugeMax(...values: number[]): number {
  const top = Math.max(0, ...values.filter((v) => Number.isFinite(v)));
  if (top <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(top));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((step) => step >= top) ?? 10 * magnitude;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isPoints = (v: unknown): v is CategoricalPoint[] =>
  Array.isArray(v) &&
  v.every(
    (p: unknown) =>
      typeof p === 'object' &&
      p !== null &&
      'label' in p &&
      typeof p.label === 'string' &&
      'value' in p &&
      isNumber(p.value),
  );

type Format = (n: number) => string;

/** Numbers in the console's language; amounts of a money dataset with their currency, one way everywhere. */
function useNumberFormat(currency?: string | null): Format {
  const format = useFormat();
  return currency ? (n: number) => format.amount(n, currency) : format.number;
}

const Kpi = ({ value, unit, format }: { value: number; unit?: string | null; format: Format }) => {
  return (
    <Stack direction="row" alignItems="baseline" spacing={1} justifyContent="center">
      <Typography variant="h3" component="span" data-testid="widget-kpi-value">
        {format(value)}
      </Typography>
      {unit ? (
        <Typography variant="body2" color="text.secondary" component="span">
          {unit}
        </Typography>
      ) : null}
    </Stack>
  );
};

const KpiDelta = ({
  value,
  prev,
  change,
  unit,
  format,
}: {
  value: number;
  prev: number;
  change: number;
  unit?: string | null;
  format: Format;
}) => {
  const translate = useTranslate();
  const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
  const Icon = direction === 'up' ? ArrowUpwardIcon : direction === 'down' ? ArrowDownwardIcon : ArrowForwardIcon;
  const color = direction === 'up' ? 'success.main' : direction === 'down' ? 'error.main' : 'text.secondary';
  return (
    <Stack alignItems="center" spacing={0.5}>
      <Kpi value={value} unit={unit} format={format} />
      <Stack direction="row" alignItems="center" spacing={0.5} sx={{ color }} data-testid={`widget-delta-${direction}`}>
        <Icon fontSize="small" aria-label={translate(`dashboard.card.delta_${direction}`)} />
        <Typography variant="body2" component="span">
          {change > 0 ? '+' : ''}
          {format(change)}
        </Typography>
        <Typography variant="body2" component="span" color="text.secondary">
          {translate('dashboard.card.vs_previous', { prev: format(prev) })}
        </Typography>
      </Stack>
    </Stack>
  );
};

const Categorical = ({ points, widgetType }: { points: CategoricalPoint[]; widgetType: string }) => {
  const translate = useTranslate();
  const { chartLabel } = useDatasetText();
  if (points.length === 0) {
    return (
      <Typography color="text.secondary" align="center">
        {translate('dashboard.card.no_data')}
      </Typography>
    );
  }
  return (
    <Suspense fallback={<ChartLoading />}>
      <CategoricalChart points={points.map((p) => ({ ...p, label: chartLabel(p.label) }))} widgetType={widgetType} />
    </Suspense>
  );
};

/** The currencies a money card can total in; shown only when there is a choice. */
const CurrencySelect = ({
  value,
  options,
  onChange,
}: {
  value: string;
  options: readonly string[];
  onChange: (c: string) => void;
}) => {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      variant="standard"
      label={translate('dashboard.card.currency')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="widget-no-drag"
      sx={{ minWidth: 96, alignSelf: 'flex-end' }}
    >
      {options.map((c) => (
        <MenuItem key={c} value={c}>
          {c}
        </MenuItem>
      ))}
    </TextField>
  );
};

/**
 * A card's body: fetches the dataset's values on mount and renders them by shape and widget type. A money dataset
 * totals one currency at a time (amounts are never added across currencies): its figures carry the currency code,
 * and a selector offers the caller's other currencies.
 */
export const WidgetValues = ({
  datasetId,
  widgetType,
  unit,
}: {
  datasetId: string;
  widgetType: string;
  unit?: string | null;
}) => {
  const translate = useTranslate();
  const [currency, setCurrency] = useState<string | undefined>();
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const { data, isPending, error, refetch, isFetching } = useDatasetValues(datasetId, currency);
  const format = useNumberFormat(data?.currency);

  if (isPending) {
    return (
      <Box display="flex" justifyContent="center" alignItems="center" height="100%" minHeight={80}>
        <CircularProgress size={28} aria-label={translate('dashboard.card.loading')} />
      </Box>
    );
  }
  if (error || !data) {
    return (
      <Alert
        severity="error"
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => void refetch()}
            disabled={isFetching}
            className="widget-no-drag"
          >
            {translate('dashboard.card.retry')}
          </Button>
        }
      >
        {translate('dashboard.card.error')}
      </Alert>
    );
  }

  const body = valuesOf(data.data, data.shape, widgetType, format, data.currency ? null : unit);
  if (!data.currency) return body;
  return (
    <Stack spacing={1} height="100%">
      {data.currencies.length > 1 ? (
        <CurrencySelect value={data.currency} options={data.currencies} onChange={setCurrency} />
      ) : null}
      {data.shape === 'categorical' ? (
        <Typography variant="caption" color="text.secondary" align="right" data-testid="widget-currency">
          {translate('dashboard.card.amounts_in', { currency: data.currency })}
        </Typography>
      ) : null}
      {body}
    </Stack>
  );
};

function valuesOf(values: unknown, shape: string, widgetType: string, format: Format, unit: string | null | undefined) {
  if (shape === 'categorical' && isPoints(values)) return <Categorical points={values} widgetType={widgetType} />;
  if (values && typeof values === 'object' && !Array.isArray(values)) {
    const v = values as Record<string, unknown>;
    const isDelta = shape === 'scalar_delta' && isNumber(v.value) && isNumber(v.prev) && isNumber(v.change);
    if (widgetType === 'gauge' && isNumber(v.value)) {
      const max = gaugeMax(v.value, isDelta ? (v.prev as number) : 0);
      return (
        <Suspense fallback={<ChartLoading />}>
          <KpiGauge value={v.value} max={max} label={format(v.value)} unit={unit} />
        </Suspense>
      );
    }
    if (isDelta)
      return (
        <KpiDelta
          value={v.value as number}
          prev={v.prev as number}
          change={v.change as number}
          unit={unit}
          format={format}
        />
      );
    if (isNumber(v.value)) return <Kpi value={v.value} unit={unit} format={format} />;
  }
  return <Unsupported />;
}

const Unsupported = () => {
  const translate = useTranslate();
  return <Alert severity="warning">{translate('dashboard.card.unsupported')}</Alert>;
};
