import { useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  List,
  ListItemButton,
  ListItemText,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Dataset, WidgetCreate, WidgetType } from '../types';
import { pickableDatasets, widgetTypesFor } from './datasets';
import { useDatasetCatalog } from './queries';
import { TITLE_MAX_LENGTH } from './WidgetTitle';
import { useDatasetText } from './datasetText';

/**
 * The add-widget picker: datasets of the three renderable shapes that are not pinned yet
 * (asked with `exclude_pinned=true`, and checked against the pinned ids too), a widget type, an optional title.
 */
export const AddWidgetDialog = ({
  open,
  onClose,
  onSubmit,
  pinnedDatasetIds,
  saving = false,
}: {
  open: boolean;
  onClose: () => void;
  onSubmit: (widget: WidgetCreate) => void;
  pinnedDatasetIds: readonly string[];
  saving?: boolean;
}) => {
  const translate = useTranslate();
  const text = useDatasetText();
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const catalog = useDatasetCatalog({ excludePinned: true, enabled: open });
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Dataset | null>(null);
  const [widgetType, setWidgetType] = useState<WidgetType | ''>('');
  const [title, setTitle] = useState('');

  const choices = useMemo(
    () => pickableDatasets(catalog.data?.items ?? [], pinnedDatasetIds, search),
    [catalog.data, pinnedDatasetIds, search],
  );
  const types = selected ? widgetTypesFor(selected) : [];

  const reset = () => {
    setSearch('');
    setSelected(null);
    setWidgetType('');
    setTitle('');
  };
  const close = () => onClose();
  const choose = (d: Dataset) => {
    setSelected(d);
    setWidgetType(widgetTypesFor(d)[0] ?? '');
  };
  const submit = () => {
    if (!selected || !widgetType) return;
    onSubmit({ dataset_id: selected.id, widget_type: widgetType, title: title.trim() || null });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth="sm"
      aria-labelledby="add-widget-title"
      slotProps={{ transition: { onExited: reset } }}
    >
      <DialogTitle id="add-widget-title">{translate('dashboard.picker.title')}</DialogTitle>
      <DialogContent dividers>
        <TextField
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          label={translate('dashboard.picker.search')}
          size="small"
          fullWidth
          sx={{ mb: 1 }}
        />
        {catalog.isPending ? (
          <Box display="flex" justifyContent="center" p={2}>
            <CircularProgress size={28} aria-label={translate('dashboard.picker.loading')} />
          </Box>
        ) : catalog.error ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void catalog.refetch()}>
                {translate('dashboard.card.retry')}
              </Button>
            }
          >
            {translate('dashboard.picker.error')}
          </Alert>
        ) : choices.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="picker-empty">
            {translate(search.trim() ? 'dashboard.picker.no_match' : 'dashboard.picker.none_left')}
          </Typography>
        ) : (
          <List dense sx={{ maxHeight: 300, overflow: 'auto' }} aria-label={translate('dashboard.picker.datasets')}>
            {choices.map((d) => (
              <ListItemButton
                key={d.id}
                selected={selected?.id === d.id}
                onClick={() => choose(d)}
                data-testid="picker-dataset"
                data-dataset-id={d.id}
              >
                <ListItemText primary={text.name(d)} secondary={text.description(d)} />
                <Stack direction="row" spacing={0.5}>
                  <Chip size="small" label={text.category(d.category)} variant="outlined" />
                  <Chip size="small" label={translate(`dashboard.shapes.${d.shape}`)} />
                </Stack>
              </ListItemButton>
            ))}
          </List>
        )}
        {selected ? (
          <Stack spacing={2} sx={{ mt: 2 }}>
            <FormControl>
              <FormLabel id="widget-type-label">{translate('dashboard.picker.widget_type')}</FormLabel>
              <RadioGroup
                row
                aria-labelledby="widget-type-label"
                value={widgetType}
                onChange={(e) => setWidgetType(e.target.value as WidgetType)}
              >
                {types.map((t) => (
                  <FormControlLabel
                    key={t}
                    value={t}
                    control={<Radio />}
                    label={translate(`dashboard.widget_types.${t}`)}
                  />
                ))}
              </RadioGroup>
            </FormControl>
            <TextField
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              label={translate('dashboard.picker.widget_title')}
              placeholder={text.name(selected)}
              helperText={translate('dashboard.picker.widget_title_help')}
              size="small"
              slotProps={{ htmlInput: { maxLength: TITLE_MAX_LENGTH } }}
            />
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={!selected || !widgetType || saving}>
          {translate('dashboard.picker.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
