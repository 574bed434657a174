/**
 * Rows of the tables server tests read or write straight in the database, typed, so a query says what it returns:
 *
 *   const event = await t.knex<AuditEventRecord>('audit_events').where({ target_id: id }).first();
 *
 * Timestamps come back as Date on both engines; jsonb columns as the parsed value.
 */

/** An account (`users`). */
export interface UserRecord {
  id: string;
  username: string;
  email: string;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
  password_hash: string;
  is_active: boolean;
  is_super_admin: boolean;
  created_at: Date;
  updated_at: Date;
  must_change_password: boolean;
  password_changed_at: Date | null;
  last_sign_in_at: Date | null;
  sso_only: boolean;
}

/** A key an account holds, on one cluster or all (`permission_grants`). */
export interface GrantRecord {
  id: string;
  user_id: string;
  permission_key: string;
  cluster_id: string | null;
  created_at: Date;
  created_by: string | null;
}

/** A signed-in device (`sessions`). */
export interface SessionRecord {
  id: string;
  user_id: string;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  ip: string | null;
  user_agent: string | null;
  sso_provider: string | null;
  sso_authenticated_at: Date | null;
  sso_id_token: string | null;
}

/** A refresh token of a session (`refresh_tokens`). */
export interface RefreshTokenRecord {
  id: string;
  user_id: string;
  token_hash: string;
  family_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
}

/** Failed sign-ins of one account from one client (`login_attempts`). */
export interface LoginAttemptRecord {
  account_key: string;
  client: string;
  failed_count: number;
  last_failed_at: Date;
  delayed_until: Date | null;
}

/** An event of the audit trail (`audit_events`). */
export interface AuditEventRecord {
  id: string;
  at: Date;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  cluster_id: string | null;
  request_id: string | null;
  ip: string | null;
  user_agent: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
  import_id: string | null;
  txid: string | null;
}

/** A cluster (`clusters`). */
export interface ClusterRecord {
  id: string;
  code: string;
  name: string;
  alias_name: string | null;
  max_license_bu: number | null;
  is_active: boolean;
  logo_key: string | null;
  avatar_key: string | null;
  created_at: Date;
  created_by_id: string | null;
  updated_at: Date;
  updated_by_id: string | null;
  deleted_at: Date | null;
  deleted_by_id: string | null;
}

/** A business unit (`business_units`): the repository's own row type, so a new column is declared once. */
export type { BusinessUnitRecord } from '../../server/src/modules/business-units/repository.js';

/** A cluster membership (`cluster_users`). */
export interface ClusterMemberRecord {
  id: string;
  user_id: string;
  cluster_id: string;
  role: string;
  is_active: boolean;
  parent_bu_id: string | null;
  created_at: Date;
  created_by_id: string | null;
  updated_at: Date;
  updated_by_id: string | null;
}

/** A business-unit membership (`bu_users`). */
export interface BusinessUnitMemberRecord {
  id: string;
  user_id: string;
  business_unit_id: string;
  role: string;
  is_active: boolean;
  is_default: boolean;
  created_at: Date;
  created_by_id: string | null;
  updated_at: Date;
  updated_by_id: string | null;
}

/** A report template of the catalogue (`report_templates`). */
export interface ReportTemplateRecord {
  id: string;
  name: string;
  description: string | null;
  report_group: string;
  kind: string;
  is_active: boolean;
  created_at: Date;
  created_by_id: string | null;
  updated_at: Date;
  updated_by_id: string | null;
  deleted_at: Date | null;
  deleted_by_id: string | null;
}

/** A print-template mapping as stored; the business-unit lists are codes (`print_template_mappings`). */
export interface PrintTemplateMappingRecord {
  id: string;
  document_type: string;
  report_template_id: string;
  is_default: boolean;
  display_label: string | null;
  display_order: number;
  allow_business_unit: string[] | null;
  deny_business_unit: string[] | null;
  is_active: boolean;
  created_at: Date;
  created_by_id: string | null;
  updated_at: Date;
  updated_by_id: string | null;
  deleted_at: Date | null;
  deleted_by_id: string | null;
}

/** An account's identity at a single sign-on provider (`user_identities`). */
export interface IdentityRecord {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string | null;
  created_at: Date;
  last_sign_in_at: Date;
}

/** A provider group's key (`sso_group_mappings`). */
export interface GroupMappingRecord {
  id: string;
  provider: string;
  group_value: string;
  permission_key: string;
  cluster_id: string | null;
  created_at: Date;
  created_by: string | null;
}

/** The rows of a `knex.raw` statement: its result is the driver's, `{ rows }` on both engines. */
export async function rawRows<T>(statement: PromiseLike<unknown>): Promise<T[]> {
  return ((await statement) as { rows: T[] }).rows;
}
