import type { BrandedRecord, BrandedResource } from '../../types';
import type { AuditedRecord } from '../../types';
import { auditOf } from '../../lib/audit';
import { AuditCell } from './AuditCell';
import type { ListColumn } from './ListTable';
import { RowActions } from './RowActions';

/** Created and Updated (sortable), and Deleted while soft-deleted rows are shown: secondary, so they fold first. */
export function auditColumns<R extends AuditedRecord>(showDeleted: boolean): ListColumn<R>[] {
  const columns: ListColumn<R>[] = [
    {
      key: 'created',
      label: 'app.list.created',
      sortField: 'created_at',
      render: (r) => <AuditCell entry={auditOf(r).created} />,
      hideBelow: 'lg',
    },
    {
      key: 'updated',
      label: 'app.list.updated',
      sortField: 'updated_at',
      render: (r) => <AuditCell entry={auditOf(r).updated} />,
      hideBelow: 'lg',
    },
  ];
  if (showDeleted) {
    columns.push({
      key: 'deleted',
      label: 'app.list.deleted_column',
      render: (r) => <AuditCell entry={auditOf(r).deleted} />,
      hideBelow: 'lg',
    });
  }
  return columns;
}

/** The row menu of a cluster or BU row (Open, Edit, Delete or Restore). */
export function rowActionsColumn<R extends BrandedRecord>(
  resource: BrandedResource,
  paths: { showPath: (row: R) => string; editPath: (row: R) => string },
  onChanged: () => void,
): ListColumn<R> {
  return {
    key: 'actions',
    label: 'app.list.actions',
    actions: true,
    align: 'right',
    width: 56,
    render: (r) => (
      <RowActions
        resource={resource}
        record={r}
        showPath={paths.showPath(r)}
        editPath={paths.editPath(r)}
        onChanged={onChanged}
      />
    ),
  };
}
