import { Box, Button, Drawer, FormControlLabel, IconButton, MenuItem, Stack, Switch, TextField } from '@mui/material';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import CloseIcon from '@mui/icons-material/Close';
import { useCanAccess, useListContext, useTranslate } from 'react-admin';
import type { PrintTemplateMapping as Mapping } from '../../types';
import { ListToolbar } from '../../components/list/ListToolbar';
import { FiltersButton } from '../../components/list/FilterSheet';
import { CsvExport } from '../../components/export/CsvExport';
import { useDocumentTypeLabel } from './DocumentTypeInput';
import { useDocumentTypes } from './queries';
import { TestResolvePanel } from './TestResolvePanel';

/** The list's filters, field by field (react-admin hands them over untyped). */
export const useMappingFilters = (): Record<string, unknown> => {
  const values: unknown = useListContext<Mapping>().filterValues;
  return values && typeof values === 'object' ? (values as Record<string, unknown>) : {};
};

/** The Filters sheet: document type and active only. */
const MappingFilters = () => {
  const translate = useTranslate();
  const { setFilters } = useListContext<Mapping>();
  const filters = useMappingFilters();
  const documentTypes = useDocumentTypes();
  const label = useDocumentTypeLabel();
  const setFilter = (key: string, value: unknown) => {
    const next = { ...filters, [key]: value };
    if (value === '' || value === false || value === undefined) delete next[key];
    setFilters(next, undefined, false);
  };
  const documentType = typeof filters.document_type === 'string' ? filters.document_type : '';
  return (
    <FiltersButton
      activeCount={(documentType ? 1 : 0) + (filters.active_only === true ? 1 : 0)}
      onClear={() => setFilters(typeof filters.q === 'string' ? { q: filters.q } : {}, undefined, false)}
    >
      <TextField
        select
        size="small"
        fullWidth
        label={translate('resources.print-template-mappings.fields.document_type')}
        value={documentType}
        onChange={(e) => setFilter('document_type', e.target.value)}
        data-testid="filter-document-type"
      >
        <MenuItem value="">{translate('resources.print-template-mappings.filters.all_document_types')}</MenuItem>
        {(documentTypes.data ?? []).map((dt) => (
          <MenuItem key={dt.code} value={dt.code}>
            {label(dt)}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        control={
          <Switch checked={filters.active_only === true} onChange={(e) => setFilter('active_only', e.target.checked)} />
        }
        label={translate('resources.print-template-mappings.filters.active_only')}
      />
    </FiltersButton>
  );
};

/** Search, the Filters sheet, Test resolve, Export (through the server) and Create: the toolbar of every list. */
export const MappingToolbar = ({ onTestResolve }: { onTestResolve: () => void }) => {
  const translate = useTranslate();
  const list = useListContext<Mapping>();
  const rows = list.data ?? [];
  const filters = useMappingFilters();
  const { canAccess: canCreate } = useCanAccess({ resource: 'print-template-mappings', action: 'create' });
  const search = typeof filters.q === 'string' ? filters.q : '';
  return (
    <ListToolbar
      search={search}
      onSearch={(q) => {
        const next: Record<string, unknown> = { ...filters, q };
        if (q === '') delete next.q;
        list.setFilters(next, undefined, false);
      }}
      filters={<MappingFilters />}
      tools={
        <Button
          variant="outlined"
          startIcon={<ManageSearchIcon />}
          onClick={onTestResolve}
          data-testid="open-test-resolve"
        >
          {translate('resources.print-template-mappings.resolve.title')}
        </Button>
      }
      exporter={
        <CsvExport
          request={{ resource: 'print-template-mappings', filter: filters, sort: list.sort }}
          page={{ page: list.page, perPage: list.perPage }}
          pageRows={rows.length}
          total={list.total ?? rows.length}
          loading={Boolean(list.isPending || list.isFetching)}
        />
      }
      createPath={canCreate ? '/print-template-mappings/create' : null}
    />
  );
};

/** The side panel of the resolve tester, opened from the toolbar. */
export const TestResolveDrawer = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const translate = useTranslate();
  const { document_type: filteredType } = useMappingFilters();
  const documentType = typeof filteredType === 'string' ? filteredType : '';
  return (
    <Drawer anchor="right" open={open} onClose={onClose}>
      <Box
        sx={{ width: { xs: '100vw', sm: 560 }, maxWidth: '100vw' }}
        role="dialog"
        aria-label={translate('resources.print-template-mappings.resolve.title')}
      >
        <Stack direction="row" justifyContent="flex-end" sx={{ p: 1, pb: 0 }}>
          <IconButton onClick={onClose} aria-label={translate('app.common.close')}>
            <CloseIcon />
          </IconButton>
        </Stack>
        {open ? <TestResolvePanel flat defaultDocumentType={documentType} /> : null}
      </Box>
    </Drawer>
  );
};
