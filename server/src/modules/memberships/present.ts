import type { components } from '../../../../openapi/generated/schema.js';
import { iso } from '../../core/audit.js';
import { userInfoOf } from '../../core/display-name.js';
import { etagOf } from '../../core/etag.js';
import type { BuMemberRow, ClusterMemberRow } from './repository.js';

/** A BU membership on the wire; `is_default` stays internal. */
export function presentBuMember(m: BuMemberRow): components['schemas']['BusinessUnitUser'] {
  return {
    id: m.id,
    user_id: m.user_id,
    business_unit_id: m.business_unit_id,
    role: m.role,
    is_active: m.is_active,
    username: m.username,
    email: m.email,
    userInfo: userInfoOf(m),
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
    // A list has no ETag header per row: each row carries its own, for the If-Match of an edit made from the list.
    etag: etagOf(m),
  };
}

export function presentClusterMember(m: ClusterMemberRow): components['schemas']['ClusterUser'] {
  return {
    id: m.id,
    user_id: m.user_id,
    cluster_id: m.cluster_id,
    role: m.role,
    is_active: m.is_active,
    parent_bu_id: m.parent_bu_id,
    parent_bu_name: m.parent_bu_name,
    username: m.username,
    email: m.email,
    userInfo: userInfoOf(m),
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
    // A list has no ETag header per row: each row carries its own, for the If-Match of an edit made from the list.
    etag: etagOf(m),
  };
}
