import { useListContext, useTranslate } from 'react-admin';
import { Box, Chip } from '@mui/material';
import CancelIcon from '@mui/icons-material/Cancel';
import { Navigate, useSearchParams } from 'react-router-dom';
import type { AuditEvent } from '../types';
import { toAuditFilter } from '../dataProvider/auditLogQuery';
import { CsvExport } from '../components/export/CsvExport';
import { ListCard, useListExportPage } from '../components/list/ListCard';
import { ResourceList, useFilterValues, useSetFilter } from '../components/list/ResourceList';
import { ListTable } from '../components/list/ListTable';
import { ListToolbar } from '../components/list/ListToolbar';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { auditScreenMessages } from './messages';
import { useAuditColumns, useAuditDetail } from './AuditEventRow';
import { AuditFilters } from './AuditFilters';
import { IMPORT_ID_PARAM, auditLogOfImport } from './paths';

const AUDIT_MESSAGES = [auditScreenMessages];

const PER_PAGE_OPTIONS = [25, 50, 100];

/** The chip of an import's events (the log opened from an import's result): removing it shows every import's. */
const ImportChip = () => {
  const translate = useTranslate();
  const filter = useFilterValues();
  const setFilter = useSetFilter();
  if (typeof filter.import_id !== 'string' || filter.import_id === '') return null;
  return (
    <Chip
      label={translate('audit.log.import_filter', { id: filter.import_id })}
      onDelete={() => setFilter({ import_id: undefined })}
      data-testid="filter-import"
      deleteIcon={<CancelIcon aria-label={translate('audit.log.clear_import_filter')} />}
    />
  );
};

const AuditLogBody = () => {
  const translate = useTranslate();
  const list = useListContext<AuditEvent>();
  const filter = useFilterValues();
  const exportPage = useListExportPage();
  const columns = useAuditColumns();
  const detail = useAuditDetail();
  return (
    <Box sx={{ mt: 2 }} data-testid="audit-log">
      <ListToolbar
        filters={
          <>
            <AuditFilters />
            <ImportChip />
          </>
        }
        exporter={<CsvExport request={{ resource: 'audit-events', filter: toAuditFilter(filter) }} {...exportPage} />}
      />
      <ListCard emptyText={translate('audit.log.empty')} perPageOptions={PER_PAGE_OPTIONS}>
        <ListTable
          testId="audit-table"
          rowTestId="audit-row"
          rows={list.data ?? []}
          columns={columns}
          detail={detail}
        />
      </ListCard>
    </Box>
  );
};

/**
 * Every change the caller may see, newest first, as react-admin's `<List>`: the Filters sheet narrows by record type,
 * actor, action, cluster and days, kept in the list's store and address; a row unfolds to its field changes and links
 * to its record where the console has a page.
 */
export const AuditLog = () => {
  // A link of the form the log had before it kept its filters (`?import_id=`) still opens on that import.
  const [searchParams] = useSearchParams();
  const importId = searchParams.get(IMPORT_ID_PARAM);
  if (importId) return <Navigate replace to={auditLogOfImport(importId)} />;
  return (
    <ScreenMessages modules={AUDIT_MESSAGES}>
      <ResourceList resource="audit-log" title="app.audit_log.title" sort={{ field: 'at', order: 'DESC' }} perPage={25}>
        <AuditLogBody />
      </ResourceList>
    </ScreenMessages>
  );
};
