import { useState } from 'react';
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
  Switch,
  Typography,
} from '@mui/material';
import FilterListIcon from '@mui/icons-material/FilterList';
import { STATUS_VALUES, type StatusValue } from '../../lib/statusFilter';

/** Side sheet with the Status checkboxes and the 'Show soft-deleted' toggle; changes apply at once. */
export const FilterSheet = (props: {
  statuses: StatusValue[];
  showDeleted: boolean;
  onChange: (change: { filters?: StatusValue[]; deleted?: boolean }) => void;
}) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const activeCount = props.statuses.length + (props.showDeleted ? 1 : 0);

  const toggleStatus = (s: StatusValue) => {
    const next = props.statuses.includes(s) ? props.statuses.filter((x) => x !== s) : [...props.statuses, s];
    props.onChange({ filters: STATUS_VALUES.filter((v) => next.includes(v)) });
  };

  return (
    <>
      <Badge badgeContent={activeCount} color="primary">
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
        <Box sx={{ width: 300, p: 2 }} role="dialog" aria-label={translate('app.list.filters')}>
          <Typography variant="h6" gutterBottom>
            {translate('app.list.filters')}
          </Typography>
          <FormLabel component="legend">{translate('app.list.status')}</FormLabel>
          <FormGroup>
            {STATUS_VALUES.map((s) => (
              <FormControlLabel
                key={s}
                control={<Checkbox checked={props.statuses.includes(s)} onChange={() => toggleStatus(s)} />}
                label={translate(`app.status.${s}`)}
              />
            ))}
          </FormGroup>
          <Divider sx={{ my: 2 }} />
          <FormControlLabel
            control={
              <Switch checked={props.showDeleted} onChange={(e) => props.onChange({ deleted: e.target.checked })} />
            }
            label={translate('app.list.show_deleted')}
          />
          <Box sx={{ mt: 3, display: 'flex', justifyContent: 'space-between' }}>
            <Button onClick={() => props.onChange({ filters: [], deleted: false })}>
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
