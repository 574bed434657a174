import { useState, type MouseEvent } from 'react';
import { Alert, Box, Card, Chip, LinearProgress, Typography } from '@mui/material';
import {
  EditButton,
  List,
  Pagination,
  RecordContextProvider,
  useCanAccess,
  useListContext,
  useTranslate,
} from 'react-admin';
import type { PrintTemplateMapping as Mapping } from '../../types';
import { ListTable, type ListColumn } from '../../components/list/ListTable';
import { useListContextSelection } from '../../components/list/useListSelection';
import { BulkToolbar } from '../../components/bulk/BulkToolbar';
import type { BulkActionOf } from '../../dataProvider/methods/bulk';
import { useDocumentTypeLabel } from './DocumentTypeInput';
import { groupByDocumentType } from './groupByDocumentType';
import { useDocumentTypes } from './queries';
import { MappingDeleteButton } from './MappingDeleteButton';
import { UnknownCodesWarning } from './UnknownCodesWarning';
import { Codes, DefaultMark, TemplateCell } from './MappingCells';
import { MappingToolbar, TestResolveDrawer, useMappingFilters } from './MappingToolbar';

export { Codes, TemplateCell } from './MappingCells';

/**
 * The contract's own ordering (document type, default first, then display order), so groups never split
 * out of order across pages. react-admin carries one sort field; the provider writes it as `field:dir`.
 */
const MAPPING_LIST_SORT = { field: 'document_type:asc,is_default:desc,display_order', order: 'ASC' } as const;

/** How a mapping is named in the bulk results and its checkbox: its label, else its template, else its document type. */
const mappingLabel = (m: Mapping) => m.display_label || m.template_name || m.document_type;

/**
 * The bulk actions that fit the filter: with "active only" on there is nothing to activate. Mappings have no
 * soft-deleted view, so there is nothing to restore.
 */
export function mappingBulkActions(activeOnly: boolean): BulkActionOf<'print-template-mappings'>[] {
  return activeOnly ? ['deactivate', 'delete'] : ['deactivate', 'activate', 'delete'];
}

/** Edit and Delete of a row, as the caller's grants allow. */
const RowButtons = ({ mapping }: { mapping: Mapping }) => {
  const { canAccess: canEdit } = useCanAccess({ resource: 'print-template-mappings', action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'print-template-mappings', action: 'delete' });
  return (
    <RecordContextProvider value={mapping}>
      {canEdit ? <EditButton onClick={(e: MouseEvent) => e.stopPropagation()} /> : null}
      {canDelete ? <MappingDeleteButton redirect={false} /> : null}
    </RecordContextProvider>
  );
};

/** The columns every document type's rows share, so they line up from one group to the next. */
function useMappingColumns(): ListColumn<Mapping>[] {
  const translate = useTranslate();
  const field = (key: string) => `resources.print-template-mappings.fields.${key}`;
  const state = (active: boolean) => `resources.print-template-mappings.${active ? 'active' : 'inactive'}`;
  /** A list of BU codes, the unknown ones marked; `empty` says what no code means for this list. */
  const codesColumn = (
    key: 'allow_business_unit' | 'deny_business_unit',
    empty: 'all_business_units' | 'no_business_units',
    hideBelow: 'sm' | 'lg',
  ): ListColumn<Mapping> => ({
    key,
    label: field(key),
    render: (m) => (
      <Codes
        codes={m[key]}
        unknown={m.unknown_business_unit_codes ?? []}
        empty={`resources.print-template-mappings.${empty}`}
      />
    ),
    hideBelow,
  });
  return [
    {
      key: 'is_default',
      label: field('is_default'),
      width: 88,
      render: (m) => <DefaultMark isDefault={m.is_default} />,
    },
    {
      key: 'report_template_id',
      label: field('report_template_id'),
      render: (m) => (
        <>
          <TemplateCell mapping={m} />
          <UnknownCodesWarning codes={m.unknown_business_unit_codes} />
        </>
      ),
    },
    { key: 'display_label', label: field('display_label'), render: (m) => m.display_label || '—', hideBelow: 'lg' },
    {
      key: 'display_order',
      label: field('display_order'),
      width: 96,
      align: 'right',
      render: (m) => m.display_order,
      hideBelow: 'lg',
    },
    codesColumn('allow_business_unit', 'all_business_units', 'sm'),
    codesColumn('deny_business_unit', 'no_business_units', 'lg'),
    {
      key: 'is_active',
      label: field('is_active'),
      width: 104,
      render: (m) => (
        <Chip size="small" color={m.is_active ? 'success' : 'default'} label={translate(state(m.is_active))} />
      ),
    },
    {
      key: 'actions',
      label: 'app.list.actions',
      align: 'right',
      actions: true,
      render: (m) => <RowButtons mapping={m} />,
    },
  ];
}

/** The page's mappings in one table, a heading row per document type, so every group's columns line up. */
const GroupedMappings = () => {
  const translate = useTranslate();
  const { data, isPending, isFetching, error } = useListContext<Mapping>();
  const filters = useMappingFilters();
  const documentTypes = useDocumentTypes();
  const label = useDocumentTypeLabel();
  const columns = useMappingColumns();
  const selection = useListContextSelection();

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
  const heading = (code: string) => {
    const dt = documentTypes.data?.find((t) => t.code === code);
    return dt ? label(dt) : code;
  };
  return (
    <>
      {isFetching ? <LinearProgress /> : null}
      <ListTable
        testId="mappings-table"
        rowTestId="mapping-row"
        groupTestId="mapping-group"
        rows={data}
        columns={columns}
        selection={selection}
        rowLabel={mappingLabel}
        rowPath={(m) => `/print-template-mappings/${m.id}/show`}
        groups={groupByDocumentType(data).map((g) => ({
          key: g.documentType,
          heading: heading(g.documentType),
          rows: g.rows,
        }))}
      />
    </>
  );
};

const MappingListBody = () => {
  const [resolving, setResolving] = useState(false);
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const { data, refetch } = useListContext<Mapping>();
  const filters = useMappingFilters();
  const selection = useListContextSelection();
  const rows = data ?? [];
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
        <GroupedMappings />
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
    sx={{ '& .RaList-main': { minWidth: 0 } }}
    exporter={false}
  >
    <MappingListBody />
  </List>
);
