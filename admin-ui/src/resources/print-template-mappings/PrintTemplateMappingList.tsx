import { useState, type MouseEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  Chip,
  Drawer,
  FormControlLabel,
  IconButton,
  LinearProgress,
  MenuItem,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import StarIcon from '@mui/icons-material/Star';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import CloseIcon from '@mui/icons-material/Close';
import {
  EditButton,
  List,
  Pagination,
  RecordContextProvider,
  useCanAccess,
  useListContext,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { PrintTemplateMapping as Mapping } from '../../types';
import { ExportButton, ListToolbar } from '../../components/list/ListToolbar';
import { hiddenBelow, isPlainRowClick, stickyActions } from '../../components/list/ListTable';
import { downloadText, mappingCsv } from '../../lib/csv';
import { useDocumentTypeLabel } from './DocumentTypeInput';
import { groupByDocumentType } from './groupByDocumentType';
import { useDocumentTypes } from './queries';
import { MappingDeleteButton } from './MappingDeleteButton';
import { TestResolvePanel } from './TestResolvePanel';
import { UnknownCodesWarning } from './UnknownCodesWarning';
import { BulkToolbar } from '../../components/bulk/BulkToolbar';
import { SelectAllCell, SelectRowCell } from '../../components/bulk/SelectionCells';
import { useBulkSelection, type BulkSelection } from '../../components/bulk/useBulkSelection';
import type { BulkActionOf } from '../../dataProvider/methods/bulk';

/**
 * The contract's own ordering (document type, default first, then display order), so groups never split
 * out of order across pages. react-admin carries one sort field; the provider writes it as `field:dir`.
 */
const MAPPING_LIST_SORT = { field: 'document_type:asc,is_default:desc,display_order', order: 'ASC' } as const;

/** The columns every document type's rows share, so they line up from one group to the next. */
const COLUMNS = [
  { key: 'is_default', width: 88 },
  { key: 'report_template_id' },
  { key: 'display_label', hideBelow: 'md' },
  { key: 'display_order', width: 96, align: 'right', hideBelow: 'lg' },
  { key: 'allow_business_unit' },
  { key: 'deny_business_unit', hideBelow: 'lg' },
  { key: 'is_active', width: 104 },
] as const satisfies readonly { key: string; width?: number; align?: 'right'; hideBelow?: 'md' | 'lg' }[];

/** How a mapping is named in the bulk results and its checkbox: its label, else its template, else its document type. */
const mappingLabel = (m: Mapping) => m.display_label || m.template_name || m.document_type;

/** The list's filters, field by field (react-admin hands them over untyped). */
const useMappingFilters = (): Record<string, unknown> => {
  const values: unknown = useListContext<Mapping>().filterValues;
  return values && typeof values === 'object' ? (values as Record<string, unknown>) : {};
};

/**
 * The bulk actions that fit the filter: with "active only" on there is nothing to activate. Mappings have no
 * soft-deleted view, so there is nothing to restore.
 */
export function mappingBulkActions(activeOnly: boolean): BulkActionOf<'print-template-mappings'>[] {
  return activeOnly ? ['deactivate', 'delete'] : ['deactivate', 'activate', 'delete'];
}

/** A mapping's business-unit codes as chips; a code that names no live business unit is marked. */
export const Codes = ({
  codes,
  unknown,
  empty,
}: {
  codes: string[] | null;
  unknown: readonly string[];
  empty: string;
}) => {
  const translate = useTranslate();
  if (!codes || codes.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate(empty)}
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {codes.map((c) =>
        unknown.includes(c) ? (
          <Tooltip key={c} title={translate('resources.print-template-mappings.unknown_code')}>
            <Chip
              label={c}
              size="small"
              color="warning"
              variant="outlined"
              icon={<WarningAmberIcon />}
              aria-label={`${c}: ${translate('resources.print-template-mappings.unknown_code')}`}
            />
          </Tooltip>
        ) : (
          <Chip key={c} label={c} size="small" />
        ),
      )}
    </Stack>
  );
};

export const TemplateCell = ({ mapping }: { mapping: Mapping }) => {
  const translate = useTranslate();
  if (!mapping.template_name) {
    return (
      <Stack direction="row" spacing={0.5} alignItems="center" color="warning.dark">
        <WarningAmberIcon fontSize="small" aria-hidden />
        <span>{translate('resources.print-template-mappings.missing_template')}</span>
      </Stack>
    );
  }
  const mismatch = mapping.template_group !== mapping.document_type;
  const mismatchText = translate('resources.print-template-mappings.group_mismatch', {
    group: mapping.template_group ?? '',
    document_type: mapping.document_type,
  });
  return (
    <Stack direction="row" spacing={0.5} alignItems="center">
      <span>{mapping.template_name}</span>
      {mismatch ? (
        <Tooltip title={mismatchText}>
          <WarningAmberIcon fontSize="small" color="warning" titleAccess={mismatchText} />
        </Tooltip>
      ) : null}
    </Stack>
  );
};

/** The Default column: a star for the default mapping, and the same in words for screen readers. */
const DefaultMark = ({ isDefault }: { isDefault: boolean }) => {
  const translate = useTranslate();
  const words = translate(
    isDefault ? 'resources.print-template-mappings.default_yes' : 'resources.print-template-mappings.default_no',
  );
  return (
    <>
      {isDefault ? <StarIcon fontSize="small" color="warning" aria-hidden data-testid="default-star" /> : null}
      <Box component="span" sx={visuallyHidden}>
        {words}
      </Box>
    </>
  );
};

/** Search, document type and active-only filters, Test resolve, Export and Create: the toolbar of every list. */
const MappingToolbar = ({ onTestResolve }: { onTestResolve: () => void }) => {
  const translate = useTranslate();
  const { setFilters, data, isPending } = useListContext<Mapping>();
  const filters = useMappingFilters();
  const documentTypes = useDocumentTypes();
  const label = useDocumentTypeLabel();
  const { canAccess: canCreate } = useCanAccess({ resource: 'print-template-mappings', action: 'create' });
  const setFilter = (key: string, value: unknown) => {
    const next = { ...filters, [key]: value };
    if (value === '' || value === false || value === undefined) delete next[key];
    setFilters(next, undefined, false);
  };
  const rows = data ?? [];

  return (
    <ListToolbar
      search={typeof filters.q === 'string' ? filters.q : ''}
      onSearch={(q) => setFilter('q', q)}
      filters={
        <>
          <TextField
            select
            size="small"
            label={translate('resources.print-template-mappings.fields.document_type')}
            value={typeof filters.document_type === 'string' ? filters.document_type : ''}
            onChange={(e) => setFilter('document_type', e.target.value)}
            fullWidth={false}
            margin="none"
            sx={{ minWidth: 220 }}
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
              <Switch
                checked={filters.active_only === true}
                onChange={(e) => setFilter('active_only', e.target.checked)}
              />
            }
            label={translate('resources.print-template-mappings.filters.active_only')}
          />
        </>
      }
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
        <ExportButton
          disabled={isPending || rows.length === 0}
          onClick={() => {
            const { filename, content } = mappingCsv(rows);
            downloadText(filename, content);
          }}
        />
      }
      createPath={canCreate ? '/print-template-mappings/create' : null}
    />
  );
};

/** The page's mappings in one table, a heading row per document type, so every group's columns line up. */
const GroupedMappings = ({ selection }: { selection: BulkSelection }) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { data, isPending, isFetching, error } = useListContext<Mapping>();
  const filters = useMappingFilters();
  const documentTypes = useDocumentTypes();
  const label = useDocumentTypeLabel();
  const { canAccess: canEdit } = useCanAccess({ resource: 'print-template-mappings', action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'print-template-mappings', action: 'delete' });
  const f = (k: string) => translate(`resources.print-template-mappings.fields.${k}`);

  if (isPending) return <LinearProgress sx={{ m: 2 }} />;
  if (error) {
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {translate('resources.print-template-mappings.list_error')}
      </Alert>
    );
  }
  if (!data || data.length === 0) {
    const filtered = Object.values(filters).some((v) => v !== undefined && v !== '' && v !== false);
    return (
      <Typography sx={{ p: 3 }} color="text.secondary" data-testid="mappings-empty">
        {translate(
          filtered ? 'resources.print-template-mappings.empty_filtered' : 'resources.print-template-mappings.empty',
        )}
      </Typography>
    );
  }

  const typeOf = (code: string) => documentTypes.data?.find((dt) => dt.code === code);
  // The columns, the row menu and the row checkbox.
  const columnCount = COLUMNS.length + 2;
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      {isFetching ? <LinearProgress /> : null}
      <Table size="small" sx={{ tableLayout: 'auto' }} data-testid="mappings-table">
        <TableHead>
          <TableRow>
            <SelectAllCell selection={selection} />
            {COLUMNS.map((c) => (
              <TableCell
                key={c.key}
                align={'align' in c ? c.align : undefined}
                sx={[
                  { fontWeight: 600, width: 'width' in c ? c.width : undefined },
                  hiddenBelow('hideBelow' in c ? c.hideBelow : undefined),
                ]}
              >
                {f(c.key)}
              </TableCell>
            ))}
            <TableCell align="right" sx={stickyActions}>
              <Box component="span" sx={visuallyHidden}>
                {translate('app.list.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        {groupByDocumentType(data).map((group) => {
          const dt = typeOf(group.documentType);
          return (
            <TableBody key={group.documentType} data-testid={`mapping-group-${group.documentType}`}>
              <TableRow>
                <TableCell
                  component="th"
                  scope="colgroup"
                  colSpan={columnCount}
                  sx={{ bgcolor: 'action.hover', py: 1 }}
                >
                  <Typography variant="subtitle1" component="h2">
                    {dt ? label(dt) : group.documentType}
                  </Typography>
                </TableCell>
              </TableRow>
              {group.rows.map((m) => (
                <RecordContextProvider key={m.id} value={m}>
                  <TableRow
                    hover
                    data-testid="mapping-row"
                    data-id={m.id}
                    onClick={(e) => {
                      if (isPlainRowClick(e)) void navigate(`/print-template-mappings/${m.id}/show`);
                    }}
                    sx={{ cursor: 'pointer' }}
                  >
                    <SelectRowCell selection={selection} id={m.id} name={mappingLabel(m)} />
                    <TableCell>
                      <DefaultMark isDefault={m.is_default} />
                    </TableCell>
                    <TableCell>
                      <TemplateCell mapping={m} />
                      <UnknownCodesWarning codes={m.unknown_business_unit_codes} />
                    </TableCell>
                    <TableCell sx={hiddenBelow('md')}>{m.display_label || '—'}</TableCell>
                    <TableCell align="right" sx={hiddenBelow('lg')}>
                      {m.display_order}
                    </TableCell>
                    <TableCell>
                      <Codes
                        codes={m.allow_business_unit}
                        unknown={m.unknown_business_unit_codes ?? []}
                        empty="resources.print-template-mappings.all_business_units"
                      />
                    </TableCell>
                    <TableCell sx={hiddenBelow('lg')}>
                      <Codes
                        codes={m.deny_business_unit}
                        unknown={m.unknown_business_unit_codes ?? []}
                        empty="resources.print-template-mappings.no_business_units"
                      />
                    </TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={m.is_active ? 'success' : 'default'}
                        label={translate(
                          m.is_active
                            ? 'resources.print-template-mappings.active'
                            : 'resources.print-template-mappings.inactive',
                        )}
                      />
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', ...stickyActions }}>
                      {canEdit ? <EditButton onClick={(e: MouseEvent) => e.stopPropagation()} /> : null}
                      {canDelete ? <MappingDeleteButton redirect={false} /> : null}
                    </TableCell>
                  </TableRow>
                </RecordContextProvider>
              ))}
            </TableBody>
          );
        })}
      </Table>
    </TableContainer>
  );
};

/** The side panel of the resolve tester, opened from the toolbar. */
const TestResolveDrawer = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
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

const MappingListBody = () => {
  const [resolving, setResolving] = useState(false);
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const { data, sort, page, perPage, refetch } = useListContext<Mapping>();
  const filters = useMappingFilters();
  const rows = data ?? [];
  const selection = useBulkSelection(
    rows.map((m) => m.id),
    JSON.stringify([filters, sort, page, perPage]),
  );
  return (
    <Box sx={{ mt: 2 }}>
      <MappingToolbar onTestResolve={() => setResolving(true)} />
      <Card>
        <BulkToolbar
          resource="print-template-mappings"
          selection={selection}
          actions={mappingBulkActions(filters.active_only === true)}
          labelOf={(id) => {
            const row = rows.find((m) => m.id === id);
            return row ? mappingLabel(row) : String(id);
          }}
          onDone={() => void refetch()}
        />
        <GroupedMappings selection={selection} />
        <Pagination rowsPerPageOptions={[10, 25, 50, 100]} />
      </Card>
      <TestResolveDrawer open={resolving} onClose={() => setResolving(false)} />
    </Box>
  );
};

/** Mappings grouped by document type, with the toolbar of every list and the resolve tester in a side panel. */
export const PrintTemplateMappingList = () => (
  <List
    sort={MAPPING_LIST_SORT}
    perPage={10}
    debounce={400}
    actions={false}
    pagination={false}
    component="div"
    empty={false}
    // The list's main column may shrink below its table's width: the table scrolls inside it, not the page.
    sx={{ '& .RaList-main': { minWidth: 0 } }}
    exporter={false}
  >
    <MappingListBody />
  </List>
);
