/**
 * Rows of the tables server tests read straight from the database, typed, so a query says what it returns:
 *
 *   const event = await t.knex<AuditEventRecord>('audit_events').where({ target_id: id }).first();
 *
 * Only the columns tests read are listed; timestamps come back as Date on both engines.
 */

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
  must_change_password: boolean;
  sso_only: boolean;
  password_changed_at: Date | null;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface GrantRecord {
  id: string;
  user_id: string;
  permission_key: string;
  cluster_id: string | null;
  created_by: string | null;
  created_at: Date;
}

export interface SessionRecord {
  id: string;
  user_id: string;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  ip: string | null;
  user_agent: string | null;
}

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
  import_id: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
}
