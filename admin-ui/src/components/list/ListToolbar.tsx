import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Box, Button, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import { Link } from 'react-router-dom';
import { DebouncedSearch } from './DebouncedSearch';

/**
 * The toolbar every list shares, in one order: search and filters on the left; the list's own tools, Export and
 * Create on the right. It wraps on narrow screens, so Create never leaves the screen.
 */
export const ListToolbar = (props: {
  /** The list's free-text search; a list without one (the audit log) leaves both out. */
  search?: string;
  onSearch?: (search: string) => void;
  filters?: ReactNode;
  /** Tools of this list, before Export (e.g. Test resolve). */
  tools?: ReactNode;
  /** The list's Export: a `CsvExport`, or an `ExportButton` of its own. */
  exporter: ReactNode;
  /** The create route; null or absent when the caller may not create (or the list has no create). */
  createPath?: string | null;
  createTestId?: string;
}) => (
  <Stack
    direction="row"
    spacing={2}
    useFlexGap
    alignItems="center"
    sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}
    data-testid="list-toolbar"
  >
    {props.onSearch && <DebouncedSearch value={props.search ?? ''} onChange={props.onSearch} />}
    {props.filters}
    <Box sx={{ flex: 1 }} />
    {props.tools}
    {props.exporter}
    {props.createPath ? <CreateLink to={props.createPath} testId={props.createTestId ?? 'toolbar-add'} /> : null}
  </Stack>
);

/** The Export button of every list, wherever it opens. */
export const ExportButton = ({ disabled, onClick }: { disabled: boolean; onClick: () => void }) => {
  const translate = useTranslate();
  return (
    <Button
      variant="outlined"
      startIcon={<DownloadIcon />}
      disabled={disabled}
      data-testid="export-csv"
      onClick={onClick}
    >
      {translate('ra.action.export')}
    </Button>
  );
};

/** The Create button of a list (also its empty state's). */
export const CreateLink = ({ to, testId }: { to: string; testId: string }) => {
  const translate = useTranslate();
  return (
    <Button component={Link} to={to} variant="contained" startIcon={<AddIcon />} data-testid={testId}>
      {translate('ra.action.create')}
    </Button>
  );
};
