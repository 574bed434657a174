/**
 * The console's names for the contract's types. Every shape the API sends or accepts is an alias of the
 * generated `openapi/generated/schema.d.ts`, so a contract change reaches every screen through the compiler.
 */
import type { components, operations, paths } from '../../openapi/generated/schema';

export type { paths };
export type Schemas = components['schemas'];
type QueryOf<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

// Sign-in and grants
export type TokenPair = Schemas['TokenPair'];
/** The part of a token pair kept between page loads. */
export type StoredTokens = Pick<TokenPair, 'access_token' | 'refresh_token'>;
export type PlatformPermissions = Schemas['PlatformPermissions'];
export type PermissionKey = Schemas['PermissionKey'];
/** What the access rules read: the grants without the caller's identity. */
export type Grants = Pick<PlatformPermissions, 'platform' | 'clusters' | 'is_super_admin'>;

// Single sign-on
export type SsoProvider = Schemas['SsoProvider'];
export type SsoGroupMapping = Schemas['SsoGroupMapping'];
export type ServiceAccount = Schemas['ServiceAccount'];
export type ServiceAccountPage = Schemas['ServiceAccountPage'];
export type ServiceAccountCreate = Schemas['ServiceAccountCreate'];
export type ServiceAccountUpdate = Schemas['ServiceAccountUpdate'];
export type ApiToken = Schemas['ApiToken'];
export type ApiTokenCreate = Schemas['ApiTokenCreate'];
export type ApiTokenCreated = Schemas['ApiTokenCreated'];
export type SsoGroupMappingInput = Schemas['SsoGroupMappingInput'];
export type UserSso = Schemas['UserSso'];
export type SsoIdentity = UserSso['identities'][number];

// Webhooks
export type Webhook = Schemas['Webhook'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
export type WebhookCreate = Schemas['WebhookCreate'];
export type WebhookUpdate = Schemas['WebhookUpdate'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryPage = Schemas['WebhookDeliveryPage'];

// Errors and paging
export type Problem = Schemas['Problem'];
export type Paginate = Schemas['Paginate'];

// Bulk actions on the rows selected in a list
export type BulkOutcome = Schemas['BulkResult'];
export type BulkRowResult = Schemas['BulkRowResult'];
/** The body each list's bulk operation takes. */
export interface BulkRequests {
  clusters: Schemas['LifecycleBulkRequest'];
  'business-units': Schemas['LifecycleBulkRequest'];
  users: Schemas['UserBulkRequest'];
  'print-template-mappings': Schemas['PrintTemplateMappingBulkRequest'];
}

// Clusters and business units
export type Cluster = Schemas['Cluster'];
export type ClusterInput = Schemas['ClusterInput'];
export type BusinessUnit = Schemas['BusinessUnit'];
export type BusinessUnitInput = Schemas['BusinessUnitInput'];
export type ConfigDatatype = Schemas['ConfigDatatype'];
export type ConfigEntry = Schemas['ConfigEntry'];
export type Currency = Schemas['Currency'];
export type UploadResult = Schemas['UploadResult'];
/** The form field of an image upload doubles as the kind of image. */
export type ImageKind = keyof Schemas['LogoUpload'] | keyof Schemas['AvatarUpload'];
/** The resources with a logo, an avatar, a soft delete and a list screen of their own. */
export interface BrandedRecords {
  clusters: Cluster;
  'business-units': BusinessUnit;
}
export type BrandedResource = keyof BrandedRecords;
export type BrandedRecord = BrandedRecords[BrandedResource];

// Memberships and the user pool
export type MembershipRole = Schemas['MembershipRole'];
export type ClusterUser = Schemas['ClusterUser'];
export type ClusterUserCreate = Schemas['ClusterUserCreate'];
export type ClusterUserUpdate = Schemas['ClusterUserUpdate'];
export type BusinessUnitUser = Schemas['BusinessUnitUser'];
export type BusinessUnitUserCreate = Schemas['BusinessUnitUserCreate'];
export type BusinessUnitUserUpdate = Schemas['BusinessUnitUserUpdate'];
export type PlatformUser = Schemas['User'];
export type UserSearchQuery = QueryOf<'searchUsers'>;

// Print template mappings
export type PrintTemplateMapping = Schemas['PrintTemplateMapping'];
export type PrintTemplateMappingCreate = Schemas['PrintTemplateMappingCreate'];
export type PrintTemplateMappingUpdate = Schemas['PrintTemplateMappingUpdate'];
export type ResolveCandidate = Schemas['ResolveCandidate'];
export type ResolveQuery = QueryOf<'resolvePrintTemplateMapping'>;
export type ReportTemplate = Schemas['ReportTemplate'];
export type ReportTemplateQuery = QueryOf<'listReportTemplates'>;
export type DocumentType = Schemas['DocumentType'];

// Widget workspace and feeds
export type Widget = Schemas['Widget'];
export type WidgetList = Schemas['WidgetList'];
export type WidgetCreate = Schemas['WidgetCreate'];
export type WidgetUpdate = Schemas['WidgetUpdate'];
export type WidgetType = Schemas['WidgetType'];
export type Dataset = Schemas['Dataset'];
export type DatasetList = Schemas['DatasetList'];
export type DatasetShape = Schemas['DatasetShape'];
export type DatasetValues = Schemas['DatasetValues'];
export type DatasetQuery = QueryOf<'listDatasets'>;
export type CategoricalPoint = Schemas['CategoricalPoint'];
export type PendingCount = Schemas['PendingCount'];
export type ApprovalFeed = Schemas['ApprovalFeed'];
export type ApprovalDocType = Schemas['ApprovalDocType'];
/** The document kinds that have a "waiting on me" count, as their paths name them. */
export type PendingDoc = keyof paths extends infer P
  ? P extends `/api/proxy/api/my-pending/${infer Doc}/count`
    ? Doc
    : never
  : never;

/** The query every list screen builds: the union of the filters of the three list operations. */
export type ListQuery = QueryOf<'listClusters'> & QueryOf<'listBusinessUnits'> & QueryOf<'listPrintTemplateMappings'>;
export type DeletedFilter = NonNullable<ListQuery['deleted']>;

/**
 * A contract shape with every field optional and nullable, all the way down: for display helpers that must
 * cope with rows a list or a test only partly fills.
 */
export type Loose<T> = { [K in keyof T]?: (T[K] extends object ? Loose<T[K]> : T[K]) | null };

/** The audit fields a list row carries, flat and nested. */
export type AuditedRecord = Loose<
  Pick<
    BrandedRecord,
    'audit' | 'created_at' | 'created_by_name' | 'updated_at' | 'updated_by_name' | 'deleted_at' | 'deleted_by_name'
  >
>;

// Operator accounts, grants and the audit trail
export type UserAccount = Schemas['UserAccount'];
export type UserAccountPage = Schemas['UserAccountPage'];
export type UserCreate = Schemas['UserCreate'];
export type UserUpdate = Schemas['UserUpdate'];
export type PasswordReset = Schemas['PasswordReset'];
export type Grant = Schemas['Grant'];
export type GrantInput = Schemas['GrantInput'];
export type GrantList = Schemas['GrantList'];
export type UserListQuery = QueryOf<'listUsers'>;
export type AuditEvent = Schemas['AuditEvent'];
export type AuditEventPage = Schemas['AuditEventPage'];
export type AuditEventQuery = QueryOf<'listAuditEvents'>;
/** The member lists' exports name their cluster or business unit in the query. */
export type ClusterMemberExportQuery = QueryOf<'exportClusterMembers'>;
export type BusinessUnitMemberExportQuery = QueryOf<'exportBusinessUnitMembers'>;
export type AuditTargetType = AuditEvent['target_type'];

// The membership CSV import
export type MembershipImportResult = Schemas['MembershipImportResult'];
export type MembershipImportRow = Schemas['MembershipImportRow'];
export type MembershipImportSummary = MembershipImportResult['summary'];
export type MembershipImportMode = MembershipImportResult['mode'];
export type MembershipImportOutcome = MembershipImportRow['outcome'];
export type MembershipImportReason = NonNullable<MembershipImportRow['reason']>;
