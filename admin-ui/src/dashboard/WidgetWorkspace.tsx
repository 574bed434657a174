import { useMemo, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DashboardCustomizeIcon from '@mui/icons-material/DashboardCustomize';
import { Title, useTranslate } from 'react-admin';
import ReactGridLayout, { useContainerWidth, type Layout, type LayoutItem } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import type { WidgetCreate } from '../types';
import { AddWidgetDialog } from './AddWidgetDialog';
import { DRAG_HANDLE_CLASS, WidgetCard } from './WidgetCard';
import { layoutFor, moveToDroppedCell, orderFromLayout } from './order';
import { useDatasetCatalog, useWidgetList } from './queries';
import { useWidgetActions } from './useWidgetActions';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { DASHBOARD_MESSAGES } from './screenMessages';

const GRID_COLS = 12;
const CARD_ROWS = 4;
const ROW_HEIGHT = 68;
/** Pointer travel before a drag starts, so clicks on a card never move it. */
const DRAG_ACTIVATION_PX = 6;

const cardsPerRow = (width: number) => (width < 700 ? 1 : width < 1100 ? 2 : 3);

/** The personal widget workspace at the root route: pinned dataset cards, reordered by drag. */
/** The workspace with its own words: they load with this screen, not with the console's first download. */
export const WidgetWorkspace = () => (
  <ScreenMessages modules={DASHBOARD_MESSAGES}>
    <Workspace />
  </ScreenMessages>
);

const Workspace = () => {
  const translate = useTranslate();
  const actions = useWidgetActions();
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const widgets = useWidgetList();
  const catalog = useDatasetCatalog();
  const { width, containerRef, mounted } = useContainerWidth();
  const [pickerOpen, setPickerOpen] = useState(false);
  const [adding, setAdding] = useState(false);

  const items = useMemo(
    () => [...(widgets.data?.items ?? [])].sort((a, b) => a.order_index - b.order_index),
    [widgets.data],
  );
  const datasetsById = useMemo(() => new Map((catalog.data?.items ?? []).map((d) => [d.id, d])), [catalog.data]);
  const perRow = cardsPerRow(width);
  const cardWidth = GRID_COLS / perRow;
  const layout = useMemo(
    () =>
      layoutFor(
        items.map((w) => w.id),
        perRow,
        cardWidth,
        CARD_ROWS,
      ),
    [items, perRow, cardWidth],
  );

  const add = async (widget: WidgetCreate) => {
    setAdding(true);
    const created = await actions.add(widget);
    setAdding(false);
    if (created) setPickerOpen(false);
  };

  const onDragStop = (next: Layout, _old: LayoutItem | null, dropped: LayoutItem | null) => {
    const ids = items.map((w) => w.id);
    void actions.reorder(
      dropped ? moveToDroppedCell(ids, dropped.i, dropped, perRow, cardWidth, CARD_ROWS) : orderFromLayout(next),
    );
  };

  return (
    <Box sx={{ mt: 2 }}>
      <Title title="dashboard.title" />
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1">
          {translate('dashboard.title')}
        </Typography>
        {items.length > 0 ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setPickerOpen(true)}>
            {translate('dashboard.add_widget')}
          </Button>
        ) : null}
      </Stack>
      {widgets.isPending ? (
        <Box display="flex" justifyContent="center" p={4}>
          <CircularProgress aria-label={translate('dashboard.loading')} />
        </Box>
      ) : widgets.error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void widgets.refetch()}>
              {translate('dashboard.card.retry')}
            </Button>
          }
        >
          {translate('dashboard.load_failed')}
        </Alert>
      ) : items.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }} data-testid="workspace-empty">
          <DashboardCustomizeIcon color="action" sx={{ fontSize: 56 }} />
          <Typography variant="h6" sx={{ mt: 1 }}>
            {translate('dashboard.empty.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {translate('dashboard.empty.body')}
          </Typography>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setPickerOpen(true)}>
            {translate('dashboard.add_widget')}
          </Button>
        </Paper>
      ) : null}
      <div ref={containerRef} data-testid="workspace-grid">
        {mounted && items.length > 0 ? (
          <ReactGridLayout
            width={width}
            layout={layout}
            gridConfig={{ cols: GRID_COLS, rowHeight: ROW_HEIGHT, margin: [16, 16], containerPadding: [0, 0] }}
            dragConfig={{
              enabled: true,
              handle: `.${DRAG_HANDLE_CLASS}`,
              cancel: '.widget-no-drag',
              threshold: DRAG_ACTIVATION_PX,
            }}
            resizeConfig={{ enabled: false }}
            onDragStop={onDragStop}
          >
            {items.map((w) => (
              <div key={w.id}>
                <WidgetCard
                  widget={w}
                  dataset={datasetsById.get(w.dataset_id)}
                  onRename={(title) => void actions.rename(w, title)}
                  onRemove={() => void actions.remove(w)}
                />
              </div>
            ))}
          </ReactGridLayout>
        ) : null}
      </div>
      <AddWidgetDialog
        open={pickerOpen}
        onClose={() => setPickerOpen(false)}
        onSubmit={(w) => void add(w)}
        pinnedDatasetIds={items.map((w) => w.dataset_id)}
        saving={adding}
      />
    </Box>
  );
};
