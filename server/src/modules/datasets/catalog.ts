import type { components } from '../../../../openapi/generated/schema.js';
import type { CategoricalValue, DatasetRepository, ScalarDeltaValue, ScalarValue } from './repository.js';

export type DatasetShape = components['schemas']['DatasetShape'];
export type WidgetType = components['schemas']['WidgetType'];
export type DatasetInfo = components['schemas']['Dataset'];

/** Which card can render which shape (DESIGN §8). */
export const WIDGET_TYPES_BY_SHAPE: Record<DatasetShape, WidgetType[]> = {
  scalar: ['kpi', 'gauge'],
  scalar_delta: ['kpi', 'gauge'],
  categorical: ['pie', 'bar'],
};

interface DatasetDefinition {
  id: string;
  name: string;
  description: string;
  shape: DatasetShape;
  category: string;
  unit: string | null;
  /** Personal datasets read the caller's own rows. */
  values(repo: DatasetRepository, callerId: string): Promise<ScalarValue | ScalarDeltaValue | CategoricalValue>;
}

/** The catalog: every dataset is one query over this service's own data. Ids are dot-namespaced and stable. */
const DEFINITIONS: DatasetDefinition[] = [
  {
    id: 'tenancy.active-clusters',
    name: 'Active clusters',
    description: 'Live clusters whose status is active.',
    shape: 'scalar',
    category: 'tenancy',
    unit: 'clusters',
    values: (repo) => repo.activeClusters(),
  },
  {
    id: 'tenancy.active-business-units',
    name: 'Active business units',
    description: 'Live business units whose status is active, over all clusters.',
    shape: 'scalar',
    category: 'tenancy',
    unit: 'business units',
    values: (repo) => repo.activeBusinessUnits(),
  },
  {
    id: 'tenancy.new-business-units',
    name: 'New business units',
    description: 'Business units created in the last 30 days, against the 30 days before.',
    shape: 'scalar_delta',
    category: 'tenancy',
    unit: 'business units',
    values: (repo) => repo.newBusinessUnits(),
  },
  {
    id: 'tenancy.licence-use-by-cluster',
    name: 'Licence use by cluster',
    description: 'Licensed users (business-unit memberships of live business units) per cluster.',
    shape: 'categorical',
    category: 'tenancy',
    unit: 'users',
    values: (repo) => repo.licenceUseByCluster(),
  },
  {
    id: 'users.by-role',
    name: 'Users by role',
    description: 'Active users by their highest role: super admin, cluster admin, cluster user or none.',
    shape: 'categorical',
    category: 'users',
    unit: 'users',
    values: (repo) => repo.usersByRole(),
  },
  {
    id: 'printing.mappings-by-document-type',
    name: 'Print mappings by document type',
    description: 'Live print template mappings for each of the ten document types.',
    shape: 'categorical',
    category: 'printing',
    unit: 'mappings',
    values: (repo) => repo.mappingsByDocumentType(),
  },
  {
    id: 'approvals.my-pending-count',
    name: 'Waiting for me',
    description: 'Pending documents now waiting on your approval.',
    shape: 'scalar',
    category: 'approvals',
    unit: 'documents',
    values: (repo, me) => repo.myPendingCount(me),
  },
  {
    id: 'approvals.my-pending-amount',
    name: 'Amount waiting for me',
    description: 'Total amount of the pending documents waiting on your approval.',
    shape: 'scalar',
    category: 'approvals',
    unit: 'amount',
    values: (repo, me) => repo.myPendingAmount(me),
  },
  {
    id: 'approvals.pending-by-type',
    name: 'My pending approvals by type',
    description: 'Pending purchase requests, purchase orders and store requisitions waiting on you.',
    shape: 'categorical',
    category: 'approvals',
    unit: 'documents',
    values: (repo, me) => repo.myPendingByType(me, 'count'),
  },
  {
    id: 'approvals.amount-by-type',
    name: 'My approval amount by type',
    description: 'Total amount waiting on your approval, per document type.',
    shape: 'categorical',
    category: 'approvals',
    unit: 'amount',
    values: (repo, me) => repo.myPendingByType(me, 'amount'),
  },
];

const BY_ID = new Map(DEFINITIONS.map((d) => [d.id, d]));

export function findDataset(id: string): DatasetDefinition | undefined {
  return BY_ID.get(id);
}

export function allDatasets(): readonly DatasetDefinition[] {
  return DEFINITIONS;
}

export function describe(d: DatasetDefinition): DatasetInfo {
  return { id: d.id, name: d.name, description: d.description, shape: d.shape, category: d.category, unit: d.unit, widget_types: WIDGET_TYPES_BY_SHAPE[d.shape] };
}

export function canRender(d: DatasetDefinition, widgetType: string): boolean {
  return (WIDGET_TYPES_BY_SHAPE[d.shape] as string[]).includes(widgetType);
}
