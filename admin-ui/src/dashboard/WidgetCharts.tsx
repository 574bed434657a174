import { Box, Typography, useTheme } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { Gauge } from '@mui/x-charts/Gauge';
import { PieChart } from '@mui/x-charts/PieChart';
import { useTranslate } from 'react-admin';
import type { CategoricalPoint } from '../types';
import { useFormat } from '../lib/format';
import { chartColors } from '../lib/palette';
import { pieSlices } from './categories';

/** The chart library is large: cards load this file only when a chart is on screen. */
const CHART_HEIGHT = 190;

export const KpiGauge = ({
  value,
  max,
  label,
  unit,
}: {
  value: number;
  max: number;
  label: string;
  unit?: string | null;
}) => {
  const theme = useTheme();
  return (
    <Box display="flex" flexDirection="column" alignItems="center">
      <Gauge
        width={180}
        height={140}
        value={value}
        valueMin={0}
        valueMax={max}
        startAngle={-110}
        endAngle={110}
        text={label}
        data-testid="widget-gauge"
        sx={{ '& .MuiGauge-valueArc': { fill: chartColors(theme.palette.mode)[0] } }}
      />
      {unit ? (
        <Typography variant="body2" color="text.secondary">
          {unit}
        </Typography>
      ) : null}
    </Box>
  );
};

/** A categorical dataset as bars or as a pie (the smallest slices summed into one). */
export const CategoricalChart = ({ points, widgetType }: { points: CategoricalPoint[]; widgetType: string }) => {
  const translate = useTranslate();
  const theme = useTheme();
  const { compact } = useFormat();
  const colors = chartColors(theme.palette.mode);
  if (widgetType === 'bar') {
    return (
      <BarChart
        height={CHART_HEIGHT}
        colors={colors}
        xAxis={[{ scaleType: 'band', data: points.map((p) => p.label) }]}
        yAxis={[{ width: 56, valueFormatter: (v: number | null) => (v === null ? '' : compact(v)) }]}
        series={[{ data: points.map((p) => p.value) }]}
      />
    );
  }
  const slices = pieSlices(points, translate('dashboard.card.other'));
  return (
    <PieChart
      height={CHART_HEIGHT}
      colors={colors}
      series={[{ data: slices.map((p, i) => ({ id: i, value: p.value, label: p.label })), innerRadius: 30 }]}
    />
  );
};
