import {
  Alert,
  Box,
  Chip,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import StarIcon from '@mui/icons-material/Star';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import {
  BooleanInput,
  CreateButton,
  EditButton,
  List,
  Pagination,
  RecordContextProvider,
  SearchInput,
  TopToolbar,
  useCanAccess,
  useListContext,
  useTranslate,
} from 'react-admin';
import type { PrintTemplateMapping as Mapping } from '../../types';
import { DocumentTypeInput, useDocumentTypeLabel } from './DocumentTypeInput';
import { groupByDocumentType } from './groupByDocumentType';
import { useDocumentTypes } from './queries';
import { MappingDeleteButton } from './MappingDeleteButton';
import { TestResolvePanel } from './TestResolvePanel';

/**
 * The contract's own ordering (document type, default first, then display order), so groups never split
 * out of order across pages. react-admin carries one sort field; the provider writes it as `field:dir`.
 */
const MAPPING_LIST_SORT = { field: 'document_type:asc,is_default:desc,display_order', order: 'ASC' } as const;

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <DocumentTypeInput key="document_type" source="document_type" alwaysOn validate={false} />,
  <BooleanInput key="active_only" source="active_only" label="resources.print-template-mappings.filters.active_only" alwaysOn />,
];

const ListActions = () => {
  const { canAccess: canCreate } = useCanAccess({ resource: 'print-template-mappings', action: 'create' });
  return <TopToolbar>{canCreate ? <CreateButton /> : null}</TopToolbar>;
};

const Codes = ({ codes, empty }: { codes: string[] | null; empty: string }) => {
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
      {codes.map((c) => (
        <Chip key={c} label={c} size="small" />
      ))}
    </Stack>
  );
};

const TemplateCell = ({ mapping }: { mapping: Mapping }) => {
  const translate = useTranslate();
  if (!mapping.template_name) {
    return (
      <Stack direction="row" spacing={0.5} alignItems="center" color="warning.main">
        <WarningAmberIcon fontSize="small" />
        <span>{translate('resources.print-template-mappings.missing_template')}</span>
      </Stack>
    );
  }
  const mismatch = mapping.template_group !== mapping.document_type;
  return (
    <Stack direction="row" spacing={0.5} alignItems="center">
      <span>{mapping.template_name}</span>
      {mismatch ? (
        <Tooltip
          title={translate('resources.print-template-mappings.group_mismatch', {
            group: mapping.template_group ?? '',
            document_type: mapping.document_type,
          })}
        >
          <WarningAmberIcon fontSize="small" color="warning" />
        </Tooltip>
      ) : null}
    </Stack>
  );
};

/** The page's mappings, one table per document type. */
const GroupedMappings = () => {
  const translate = useTranslate();
  const { data, isPending, error, filterValues } = useListContext<Mapping>();
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
    const filtered = Object.values(filterValues ?? {}).some((v) => v !== undefined && v !== '' && v !== false);
    return (
      <Typography sx={{ p: 3 }} color="text.secondary" data-testid="mappings-empty">
        {translate(filtered ? 'resources.print-template-mappings.empty_filtered' : 'resources.print-template-mappings.empty')}
      </Typography>
    );
  }

  const typeOf = (code: string) => documentTypes.data?.find((dt) => dt.code === code);
  return (
    <Box>
      {groupByDocumentType(data).map((group) => {
        const dt = typeOf(group.documentType);
        return (
          <Box key={group.documentType} sx={{ mb: 2 }} data-testid={`mapping-group-${group.documentType}`}>
            <Typography variant="subtitle1" sx={{ px: 2, pt: 2 }} component="h2">
              {dt ? label(dt) : group.documentType}
            </Typography>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{f('report_template_id')}</TableCell>
                  <TableCell>{f('display_label')}</TableCell>
                  <TableCell>{f('is_default')}</TableCell>
                  <TableCell align="right">{f('display_order')}</TableCell>
                  <TableCell>{f('allow_business_unit')}</TableCell>
                  <TableCell>{f('deny_business_unit')}</TableCell>
                  <TableCell>{f('is_active')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {group.rows.map((m) => (
                  <RecordContextProvider key={m.id} value={m}>
                    <TableRow hover data-testid="mapping-row" data-id={m.id}>
                      <TableCell>
                        <TemplateCell mapping={m} />
                      </TableCell>
                      <TableCell>{m.display_label || '—'}</TableCell>
                      <TableCell>
                        {m.is_default ? (
                          <StarIcon fontSize="small" color="warning" aria-label={f('is_default')} />
                        ) : null}
                      </TableCell>
                      <TableCell align="right">{m.display_order}</TableCell>
                      <TableCell>
                        <Codes codes={m.allow_business_unit} empty="resources.print-template-mappings.all_business_units" />
                      </TableCell>
                      <TableCell>
                        <Codes codes={m.deny_business_unit} empty="resources.print-template-mappings.no_business_units" />
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
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {canEdit ? <EditButton /> : null}
                        {canDelete ? (
                          <MappingDeleteButton redirect={false} />
                        ) : null}
                      </TableCell>
                    </TableRow>
                  </RecordContextProvider>
                ))}
              </TableBody>
            </Table>
          </Box>
        );
      })}
    </Box>
  );
};

/** Mappings grouped by document type, with the document-type and active-only filters and the resolve tester. */
export const PrintTemplateMappingList = () => (
  <>
    <List
      filters={filters}
      actions={<ListActions />}
      sort={MAPPING_LIST_SORT}
      perPage={10}
      debounce={400}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
      empty={false}
      exporter={false}
    >
      <GroupedMappings />
    </List>
    <Paper sx={{ mt: 2 }} elevation={0}>
      <TestResolvePanel />
    </Paper>
  </>
);
