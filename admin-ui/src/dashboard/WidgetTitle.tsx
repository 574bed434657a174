import { useRef, useState, type KeyboardEvent } from 'react';
import { IconButton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { useTranslate } from 'react-admin';

export const TITLE_MAX_LENGTH = 255;

/** The card title, renamed in place: Enter or leaving the field saves, Escape cancels; blank falls back to the dataset name. */
export const WidgetTitle = ({
  title,
  fallback,
  onRename,
}: {
  title: string | null;
  fallback: string;
  onRename: (title: string | null) => void;
}) => {
  const translate = useTranslate();
  const [draft, setDraftState] = useState<string | null>(null);
  // Enter, Escape and the blur that follows them must act once: the ref sees the latest draft at once.
  const draftRef = useRef<string | null>(null);
  const setDraft = (value: string | null) => {
    draftRef.current = value;
    setDraftState(value);
  };
  const shown = title?.trim() ? title : fallback;

  const commit = () => {
    const current = draftRef.current;
    if (current === null) return;
    const next = current.trim() ? current.trim().slice(0, TITLE_MAX_LENGTH) : null;
    setDraft(null);
    if (next !== (title?.trim() ? title.trim() : null)) onRename(next);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setDraft(null);
    }
  };

  if (draft !== null) {
    return (
      <TextField
        className="widget-no-drag"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
        size="small"
        variant="standard"
        autoFocus
        fullWidth
        placeholder={fallback}
        slotProps={{
          htmlInput: { maxLength: TITLE_MAX_LENGTH, 'aria-label': translate('dashboard.card.title_input') },
        }}
      />
    );
  }
  return (
    <Stack direction="row" alignItems="center" spacing={0.5} minWidth={0}>
      <Typography variant="subtitle1" noWrap title={shown} data-testid="widget-title">
        {shown}
      </Typography>
      <Tooltip title={translate('dashboard.card.rename')}>
        <IconButton
          size="small"
          className="widget-no-drag"
          aria-label={translate('dashboard.card.rename')}
          onClick={() => setDraft(title ?? '')}
        >
          <EditIcon fontSize="inherit" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
};
