import type { Schemas } from '../../core/contract.js';
import type { PermissionKey } from '../../core/permissions.js';
import type {
  CategoricalValue,
  ClusterScope,
  DatasetRepository,
  InCurrency,
  ScalarDeltaValue,
  ScalarValue,
} from './repository.js';

export type DatasetShape = Schemas['DatasetShape'];
export type WidgetType = Schemas['WidgetType'];
export type DatasetInfo = Schemas['Dataset'];

/** Who asks, and over what: the caller's own rows, the clusters it may read, and for money the currency asked for. */
export interface DatasetCaller {
  userId: string;
  readableClusters: ClusterScope;
  currency?: string;
}

type Values = ScalarValue | ScalarDeltaValue | CategoricalValue;

/** Which dashboard card can render which dataset shape: a single number on a KPI or gauge, categories on a pie or bar. */
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
  /** `own`: the caller's rows; `clusters`: the clusters it may read; `platform`: everything, for platform-wide grants. */
  scope: DatasetInfo['scope'];
  /** For `platform` datasets: any of these keys, held platform-wide, lets a caller see the figure. */
  platformKeys?: PermissionKey[];
  /** Counts come as they are; money comes in one currency, with the others the caller could choose. */
  values(repo: DatasetRepository, caller: DatasetCaller): Promise<Values | InCurrency<Values>>;
  /** `money` datasets answer in one currency at a time; the rest are counts. */
  measure?: 'money';
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
    scope: 'clusters',
    values: (repo, caller) => repo.activeClusters(caller.readableClusters),
  },
  {
    id: 'tenancy.active-business-units',
    name: 'Active business units',
    description: 'Live business units whose status is active, over all clusters.',
    shape: 'scalar',
    category: 'tenancy',
    unit: 'business units',
    scope: 'clusters',
    values: (repo, caller) => repo.activeBusinessUnits(caller.readableClusters),
  },
  {
    id: 'tenancy.new-business-units',
    name: 'New business units',
    description: 'Business units created in the last 30 days, against the 30 days before.',
    shape: 'scalar_delta',
    category: 'tenancy',
    unit: 'business units',
    scope: 'clusters',
    values: (repo, caller) => repo.newBusinessUnits(caller.readableClusters),
  },
  {
    id: 'tenancy.licence-use-by-cluster',
    name: 'Licence use by cluster',
    description: 'Licensed users (business-unit memberships of live business units) per cluster.',
    shape: 'categorical',
    category: 'tenancy',
    unit: 'users',
    scope: 'clusters',
    values: (repo, caller) => repo.licenceUseByCluster(caller.readableClusters),
  },
  {
    id: 'users.by-role',
    name: 'Users by role',
    description: 'Active users by their highest role: super admin, cluster admin, cluster user or none.',
    shape: 'categorical',
    category: 'users',
    unit: 'users',
    scope: 'platform',
    platformKeys: ['cluster.read'],
    values: (repo) => repo.usersByRole(),
  },
  {
    id: 'printing.mappings-by-document-type',
    name: 'Print mappings by document type',
    description: 'Live print template mappings for each of the ten document types.',
    shape: 'categorical',
    category: 'printing',
    unit: 'mappings',
    scope: 'platform',
    platformKeys: ['cluster.read', 'print_template_mapping.manage'],
    values: (repo) => repo.mappingsByDocumentType(),
  },
  {
    id: 'approvals.my-pending-count',
    name: 'Waiting for me',
    description: 'Pending documents now waiting on your approval.',
    shape: 'scalar',
    category: 'approvals',
    unit: 'documents',
    scope: 'own',
    values: (repo, caller) => repo.myPendingCount(caller.userId),
  },
  {
    id: 'approvals.my-pending-amount',
    name: 'Amount waiting for me',
    description: 'Total amount of the pending documents waiting on your approval.',
    shape: 'scalar',
    category: 'approvals',
    unit: 'amount',
    scope: 'own',
    measure: 'money',
    values: (repo, caller) => repo.myPendingAmount(caller.userId, caller.currency),
  },
  {
    id: 'approvals.pending-by-type',
    name: 'My pending approvals by type',
    description: 'Pending purchase requests, purchase orders and store requisitions waiting on you.',
    shape: 'categorical',
    category: 'approvals',
    unit: 'documents',
    scope: 'own',
    values: (repo, caller) => repo.myPendingCountByType(caller.userId),
  },
  {
    id: 'approvals.amount-by-type',
    name: 'My approval amount by type',
    description: 'Total amount waiting on your approval, per document type.',
    shape: 'categorical',
    category: 'approvals',
    unit: 'amount',
    scope: 'own',
    measure: 'money',
    values: (repo, caller) => repo.myPendingAmountByType(caller.userId, caller.currency),
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
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    shape: d.shape,
    category: d.category,
    unit: d.unit,
    widget_types: WIDGET_TYPES_BY_SHAPE[d.shape],
    scope: d.scope,
    measure: d.measure ?? 'count',
  };
}

export function canRender(d: DatasetDefinition, widgetType: string): boolean {
  return (WIDGET_TYPES_BY_SHAPE[d.shape] as string[]).includes(widgetType);
}
