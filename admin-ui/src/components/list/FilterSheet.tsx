import { useEffect, useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Divider,
  Drawer,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import FilterListIcon from '@mui/icons-material/FilterList';
import { STATUS_VALUES, type StatusValue } from '../../lib/statusFilter';

/**
 * The Filters button of every list, with the number of filters in use, and the side sheet it opens; changes apply at
 * once, so the sheet only needs Clear and Close.
 */
export const FiltersButton = (props: { activeCount: number; onClear: () => void; children: ReactNode }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Badge badgeContent={props.activeCount} color="primary">
        <Button
          variant="outlined"
          startIcon={<FilterListIcon />}
          onClick={() => setOpen(true)}
          data-testid="open-filters"
        >
          {translate('app.list.filters')}
        </Button>
      </Badge>
      <Drawer anchor="right" open={open} onClose={() => setOpen(false)}>
        <Box sx={{ width: 320, maxWidth: '100vw', p: 2 }} role="dialog" aria-label={translate('app.list.filters')}>
          <Typography variant="h6" gutterBottom>
            {translate('app.list.filters')}
          </Typography>
          <Stack spacing={2}>{props.children}</Stack>
          <Box sx={{ mt: 3, display: 'flex', justifyContent: 'space-between' }}>
            <Button onClick={props.onClear} data-testid="clear-filters">
              {translate('app.list.clear_filters')}
            </Button>
            <Button variant="contained" onClick={() => setOpen(false)}>
              {translate('app.common.close')}
            </Button>
          </Box>
        </Box>
      </Drawer>
    </>
  );
};

/**
 * A value the screen shows at once while the list applies it (react-admin changes its filters on the next tick), and
 * takes again from the list whenever the list's own value changes.
 */
function useShownAtOnce<T>(value: T): [T, (next: T) => void] {
  const [shown, setShown] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => setShown(JSON.parse(key) as T), [key]);
  return [shown, setShown];
}

/** The cluster and BU filters: the Status checkboxes and the 'Show soft-deleted' toggle. */
export const FilterSheet = (props: {
  statuses: StatusValue[];
  showDeleted: boolean;
  onChange: (change: { filters?: StatusValue[]; deleted?: boolean }) => void;
}) => {
  const translate = useTranslate();
  const [statuses, setStatuses] = useShownAtOnce(props.statuses);
  const [showDeleted, setShowDeleted] = useShownAtOnce(props.showDeleted);
  const toggleStatus = (s: StatusValue) => {
    const next = STATUS_VALUES.filter((v) => (v === s ? !statuses.includes(s) : statuses.includes(v)));
    setStatuses(next);
    props.onChange({ filters: next });
  };
  return (
    <FiltersButton
      activeCount={statuses.length + (showDeleted ? 1 : 0)}
      onClear={() => {
        setStatuses([]);
        setShowDeleted(false);
        props.onChange({ filters: [], deleted: false });
      }}
    >
      <Box>
        <FormLabel component="legend">{translate('app.list.status')}</FormLabel>
        <FormGroup>
          {STATUS_VALUES.map((s) => (
            <FormControlLabel
              key={s}
              control={<Checkbox checked={statuses.includes(s)} onChange={() => toggleStatus(s)} />}
              label={translate(`app.status.${s}`)}
            />
          ))}
        </FormGroup>
      </Box>
      <Divider />
      <FormControlLabel
        control={
          <Switch
            checked={showDeleted}
            onChange={(e) => {
              setShowDeleted(e.target.checked);
              props.onChange({ deleted: e.target.checked });
            }}
          />
        }
        label={translate('app.list.show_deleted')}
      />
    </FiltersButton>
  );
};
