import { useState } from 'react';
import { Box, Card, CardContent, Chip, IconButton, Stack, Tooltip } from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import { Confirm, useTranslate } from 'react-admin';
import type { Dataset, Widget } from '../types';
import { WidgetTitle } from './WidgetTitle';
import { WidgetValues } from './WidgetValues';
import { useDatasetText } from './datasetText';

export const DRAG_HANDLE_CLASS = 'widget-drag-handle';

/** One card of the workspace: drag handle, title renamed in place, remove (confirmed), and the dataset's values. */
export const WidgetCard = ({
  widget,
  dataset,
  onRename,
  onRemove,
}: {
  widget: Widget;
  dataset?: Dataset;
  onRename: (title: string | null) => void;
  onRemove: () => void;
}) => {
  const translate = useTranslate();
  const text = useDatasetText();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const fallback = dataset ? text.name(dataset) : widget.dataset_id;

  return (
    <Card
      variant="outlined"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
      data-testid="widget-card"
      data-widget-id={widget.id}
      data-dataset-id={widget.dataset_id}
    >
      <Stack direction="row" alignItems="center" spacing={0.5} sx={{ px: 1, pt: 1 }}>
        <Tooltip title={translate('dashboard.card.drag')}>
          <Box
            className={DRAG_HANDLE_CLASS}
            aria-label={translate('dashboard.card.drag')}
            sx={{ cursor: 'grab', display: 'flex', color: 'text.secondary', '&:active': { cursor: 'grabbing' } }}
          >
            <DragIndicatorIcon fontSize="small" />
          </Box>
        </Tooltip>
        <Box flex={1} minWidth={0}>
          <WidgetTitle title={widget.title} fallback={fallback} onRename={onRename} />
        </Box>
        <Chip size="small" variant="outlined" label={translate(`dashboard.widget_types.${widget.widget_type}`)} />
        <Tooltip title={translate('dashboard.card.remove')}>
          <IconButton
            size="small"
            className="widget-no-drag"
            aria-label={translate('dashboard.card.remove')}
            onClick={() => setConfirmOpen(true)}
          >
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      <CardContent sx={{ flex: 1, display: 'flex', flexDirection: 'column', justifyContent: 'center', minHeight: 0 }}>
        <WidgetValues datasetId={widget.dataset_id} widgetType={widget.widget_type} unit={text.unit(dataset?.unit)} />
      </CardContent>
      <Confirm
        isOpen={confirmOpen}
        title="dashboard.remove.title"
        content="dashboard.remove.content"
        translateOptions={{ name: widget.title?.trim() || fallback }}
        onConfirm={() => {
          setConfirmOpen(false);
          onRemove();
        }}
        onClose={() => setConfirmOpen(false)}
      />
    </Card>
  );
};
