// The baseline's statements: for each benchmarked request the one statement a careful engineer would write for the
// service's response body. PostgreSQL builds the JSON itself (the server only passes the text on), pages are cut on
// bare ids before any row is joined, counts are per-row index lookups, and the caller's standing and permission are
// read by the same statement (the `caller` CTE), so every request is one round trip after the token check.
//
// Every statement takes the caller as $1 (user id) and $2 (session id or null) and returns `standing` ('ok', or why
// the caller is refused: no row at all means an unknown user) and `body` (the JSON text, null when nothing matched).

/** A timestamp as the service writes it (`Date#toISOString`: UTC, milliseconds truncated like the pg driver's). */
export const iso = (expr: string) => `to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A user's display name (first, middle, last; else username; else email), as the service computes it. */
export function displayName(alias: string): string {
  const part = (c: string) => `nullif(btrim(${alias}.${c}), '')`;
  return `coalesce(nullif(concat_ws(' ', ${part('firstname')}, ${part('middlename')}, ${part('lastname')}), ''), ${part('username')}, ${alias}.email)`;
}

/** The opaque part of the service's ETag of a row (`"` + 22 chars of base64url sha1 of `id|updated_at` + `"`). */
export const etag = (alias: string) =>
  `'"' || left(translate(encode(digest(${alias}.id::text || '|' || ${iso(`${alias}.updated_at`)}, 'sha1'), 'base64'), '+/', '-_'), 22) || '"'`;

/** True when the If-Match tags ($n: text[] of opaque tags, null = absent or `*`) hold the row's current tag. */
const fresh = (alias: string, tags: string) => `(${tags}::text[] is null or (${etag(alias)}) = any(${tags}::text[]))`;

/** Super admin, the key platform-wide, or (with `clusterId`) the key on that cluster. */
const holds = (key: string, clusterId?: string) =>
  `(u.is_super_admin or exists (select 1 from permission_grants g where g.user_id = u.id and g.permission_key = '${key}'
     and (g.cluster_id is null${clusterId ? ` or g.cluster_id = ${clusterId}` : ''})))`;
/** The key held platform-wide or on any cluster (the contract's cluster-scoped rule before a record is known). */
const holdsAnywhere = (key: string) =>
  `(u.is_super_admin or exists (select 1 from permission_grants g where g.user_id = u.id and g.permission_key = '${key}'))`;

/**
 * The caller's standing, as the service's authentication decides it: an active account, a live session when the
 * token names one, no pending password change, and the operation's permission. `extra` adds columns later parts need.
 */
function caller(permission: string, extra = ''): string {
  return `caller as (
    select u.id,
      case when not u.is_active then 'deactivated'
           when $2::uuid is not null and not exists (select 1 from sessions s where s.id = $2::uuid and s.user_id = u.id
             and s.revoked_at is null and s.expires_at > now()) then 'session-ended'
           when u.must_change_password then 'password-change'
           when not ${permission} then 'forbidden'
           else 'ok' end as standing${extra}
    from users u where u.id = $1::uuid)`;
}

/**
 * The bare-limit form of a statement (bench/baseline/server.ts with `bare`): the same body, but the caller is only
 * named, never checked: no standing, session or permission test, always 'ok'. The caller's row is still read by id
 * (one primary-key lookup), because some bodies are the caller's own (the widget list) or scoped by it.
 */
export function bare(statement: string): string {
  const checked = /case when not u\.is_active then 'deactivated'[\s\S]*?else 'ok' end as standing/;
  if (!checked.test(statement)) throw new Error('bare(): the statement has no caller check to remove');
  return statement.replace(checked, `'ok'::text as standing, $2::uuid as session_id`);
}

/** `select standing, <body when ok>` of a statement whose body needs nothing but the caller. */
const answer = (body: string) =>
  `select caller.standing, case when caller.standing = 'ok' then (${body}) end as body from caller`;

/** The three actors' display names of `alias` as `<alias>_names.created|updated|deleted` (a lateral join). */
const actorNames = (alias: string) => `left join lateral (select
    (select ${displayName('a')} from users a where a.id = ${alias}.created_by_id) as created,
    (select ${displayName('a')} from users a where a.id = ${alias}.updated_by_id) as updated,
    (select ${displayName('a')} from users a where a.id = ${alias}.deleted_by_id) as deleted) ${alias}_names on true`;

/** The nested `audit` object and the flat audit fields of a row joined with `actorNames`. */
function auditFields(alias: string): string {
  const actor = (a: string) =>
    `jsonb_build_object('at', ${iso(`${alias}.${a}_at`)}, 'id', ${alias}.${a}_by_id, 'name', ${alias}_names.${a}, 'avatar', null)`;
  return `jsonb_build_object('audit', jsonb_build_object('created', ${actor('created')}, 'updated', ${actor('updated')}, 'deleted', ${actor('deleted')}),
    'created_at', ${iso(`${alias}.created_at`)}, 'created_by_name', ${alias}_names.created,
    'updated_at', ${iso(`${alias}.updated_at`)}, 'updated_by_name', ${alias}_names.updated,
    'deleted_at', ${iso(`${alias}.deleted_at`)}, 'deleted_by_name', ${alias}_names.deleted)`;
}

/**
 * `logo` / `avatar` when the row has the image. The service signs a storage URL there; the comparison ignores the
 * URL's text (it carries a signature and expiry), so the baseline names the key.
 */
const images = (alias: string) =>
  `(case when ${alias}.logo_key is null then '{}'::jsonb else jsonb_build_object('logo', jsonb_build_object('url', ${alias}.logo_key)) end
   || case when ${alias}.avatar_key is null then '{}'::jsonb else jsonb_build_object('avatar', jsonb_build_object('url', ${alias}.avatar_key)) end)`;

/** `{ total, page, perpage, pages }` for a total expression and the page/perpage parameters. */
const paginate = (total: string, page: string, perpage: string) =>
  `json_build_object('total', ${total}, 'page', ${page}::int, 'perpage', ${perpage}::int, 'pages', case when ${total} = 0 then 1 else ceil(${total}::numeric / ${perpage}::int)::int end)`;

/** A page body: the rows' JSON in order (or []) and the paginate object over `total_rows.total`. */
const pageBody = (rows: string, total: string, page: string, perpage: string) =>
  `select json_build_object('data', coalesce((${rows}), '[]'::json), 'paginate', ${paginate('total_rows.total', page, perpage)})::text
   from (${total}) total_rows`;

// ---- clusters -------------------------------------------------------------------------------------------------

/** A cluster as the contract's `Cluster`, from a row `alias` with the cluster columns (a table row or RETURNING). */
const clusterJson = (
  alias: string,
) => `(jsonb_build_object('id', ${alias}.id, 'code', ${alias}.code, 'name', ${alias}.name,
    'alias_name', ${alias}.alias_name, 'max_license_bu', ${alias}.max_license_bu, 'is_active', ${alias}.is_active,
    'bu_count', ${alias}_units.bu_count, 'users_count', ${alias}_units.users_count, 'total_max_license_users', ${alias}_units.total)
  || ${images(alias)} || ${auditFields(alias)})`;

/** The counts of a cluster: its live units (and their licence total: null when one is unlimited) and members. */
const clusterCounts = (alias: string) => `left join lateral (select count(*) as bu_count,
    case when bool_or(b.max_license_users is null) then null else sum(b.max_license_users) end as total,
    (select count(*) from cluster_users m where m.cluster_id = ${alias}.id) as users_count
  from business_units b where b.cluster_id = ${alias}.id and b.deleted_at is null) ${alias}_units on true`;

/** Live clusters the caller may read: all of them, or those it holds `cluster.read` on. */
const readableCluster = `c.deleted_at is null and ((select all_clusters from caller) or c.id = any((select cluster_ids from caller)::uuid[]))`;

/** $3 perpage, $4 offset, $5 page. The page is cut on the (created_at desc, id) index of live rows before any join. */
export const clusterPage = `with ${caller(
  holdsAnywhere('cluster.read'),
  `,
      ${holds('cluster.read')} as all_clusters,
      array(select g.cluster_id from permission_grants g where g.user_id = u.id and g.permission_key = 'cluster.read' and g.cluster_id is not null) as cluster_ids`,
)},
  page as (select c.id from clusters c where ${readableCluster} order by c.created_at desc, c.id asc limit $3::int offset $4::int)
${answer(
  pageBody(
    `select json_agg(${clusterJson('c')} order by c.created_at desc, c.id asc) from page join clusters c on c.id = page.id ${clusterCounts('c')} ${actorNames('c')}`,
    `select count(*) as total from clusters c where ${readableCluster}`,
    '$5',
    '$3',
  ),
)}`;

/**
 * $3 id, $4 code, $5 name, $6 alias_name, $7 max_license_bu, $8 is_active, $9 If-Match tags, $10 request id, $11 ip,
 * $12 user agent. Locks the live row, checks its version and the licence rule, writes it and its audit event, and
 * answers the written row with its counts: one statement.
 */
export const clusterUpdate = `with ${caller(holds('cluster.update', '$3::uuid'), `, ${holds('cluster.update')} as may_change_licence`)},
  current as (select c.*, ${fresh('c', '$9')} as fresh from clusters c
    where c.id = $3::uuid and c.deleted_at is null and (select standing from caller) = 'ok' for update),
  allowed as (select current.*, (current.max_license_bu is not distinct from $7::int or (select may_change_licence from caller)) as licence_ok from current),
  updated as (update clusters c set code = $4, name = $5, alias_name = $6, max_license_bu = $7::int, is_active = $8::boolean,
      updated_by_id = $1::uuid, updated_at = greatest(now(), c.updated_at + interval '1 millisecond')
    from allowed where c.id = allowed.id and allowed.fresh and allowed.licence_ok
    returning c.*, ${['code', 'name', 'alias_name', 'max_license_bu', 'is_active'].map((f) => `allowed.${f} as old_${f}`).join(', ')}),
  audit as (insert into audit_events (actor_id, actor_name, action, target_type, target_id, cluster_id, request_id, ip, user_agent, changes)
    select $1::uuid, (select ${displayName('a')} from users a where a.id = $1::uuid), 'updateCluster', 'cluster', u.id::text, u.id, $10, $11, $12,
      ${changes(['code', 'name', 'alias_name', 'max_license_bu', 'is_active'].map((f) => ({ name: f, before: `u.old_${f}`, after: `u.${f}` })))}
    from updated u)
select case when caller.standing <> 'ok' then caller.standing when a.id is null then 'not-found' when not a.fresh then 'stale'
            when not a.licence_ok then 'licence' else 'ok' end as standing,
  (select ${clusterJson('u')}::text from updated u ${clusterCounts('u')} ${actorNames('u')}) as body
from caller left join allowed a on true`;

/** The audit event's `changes`: `{ field: { before, after } }` of the fields whose value differs. */
function changes(fields: Array<{ name: string; before: string; after: string; written?: string }>): string {
  return fields
    .map(
      (f) => `case when ${f.written ? `${f.written} and ` : ''}${f.before} is distinct from ${f.after}
      then jsonb_build_object('${f.name}', jsonb_build_object('before', ${f.before}, 'after', ${f.after})) else '{}'::jsonb end`,
    )
    .join(' || ');
}

// ---- business units -------------------------------------------------------------------------------------------

const BU_TEXT_FIELDS = [
  'hotel_name',
  'hotel_tel',
  'hotel_email',
  'hotel_address',
  'hotel_zip_code',
  'company_name',
  'company_tel',
  'company_email',
  'company_address',
  'company_zip_code',
  'tax_no',
  'branch_no',
  'date_format',
  'date_time_format',
  'time_format',
  'long_time_format',
  'short_time_format',
  'timezone',
];
const BU_FORMAT_FIELDS = ['perpage_format', 'amount_format', 'quantity_format', 'recipe_format'];

/** A number format as the service returns it: a string or object as stored, any other JSON value as its text. */
const format = (col: string) => `case when ${col} is null or jsonb_typeof(${col}) = 'null' then null
  when jsonb_typeof(${col}) in ('string', 'object') then ${col} else to_jsonb(${col}::text) end`;

/** The config entries with a key and a label (non-blank text), each with every field (unknown datatypes → string). */
const config = (col: string) => `coalesce((select jsonb_agg(jsonb_build_object('key', e->'key', 'label', e->'label',
      'datatype', case when e->>'datatype' in ('string', 'number', 'boolean', 'date', 'json') and jsonb_typeof(e->'datatype') = 'string' then e->'datatype' else '"string"'::jsonb end,
      'value', coalesce(e->'value', 'null'::jsonb)) order by n)
    from jsonb_array_elements(case when jsonb_typeof(${col}) = 'array' then ${col} else '[]'::jsonb end) with ordinality as entries(e, n)
    where jsonb_typeof(e) = 'object' and jsonb_typeof(e->'key') = 'string' and btrim(e->>'key') <> ''
      and jsonb_typeof(e->'label') = 'string' and btrim(e->>'label') <> ''), '[]'::jsonb)`;

const buJson = (
  alias: string,
  clusterName: string,
) => `(jsonb_build_object('id', ${alias}.id, 'cluster_id', ${alias}.cluster_id, 'cluster_name', ${clusterName},
    'code', ${alias}.code, 'name', ${alias}.name, 'alias_name', ${alias}.alias_name, 'description', ${alias}.description,
    'max_license_users', ${alias}.max_license_users, 'is_hq', ${alias}.is_hq, 'is_active', ${alias}.is_active,
    'calculation_method', ${alias}.calculation_method, 'default_currency_id', ${alias}.default_currency_id,
    'config', ${config(`${alias}.config`)}, 'db_connection', ${alias}.db_connection,
    'users_count', (select count(*) from bu_users m where m.business_unit_id = ${alias}.id))
  || jsonb_build_object(${BU_TEXT_FIELDS.map((f) => `'${f}', ${alias}.${f}`).join(', ')})
  || jsonb_build_object(${BU_FORMAT_FIELDS.map((f) => `'${f}', ${format(`${alias}.${f}`)}`).join(', ')})
  || ${images(alias)} || ${auditFields(alias)})`;

/** $3 cluster id, $4 perpage, $5 offset, $6 page. Page on the unit's (cluster_id, created_at) order; the cluster's name once. */
export const businessUnitsOfCluster = `with ${caller(holds('cluster.read', '$3::uuid'))},
  page as (select b.id from business_units b where b.cluster_id = $3::uuid and b.deleted_at is null
    order by b.created_at desc, b.id asc limit $4::int offset $5::int)
${answer(
  pageBody(
    `select json_agg(${buJson('b', '(select name from clusters where id = $3::uuid)')} order by b.created_at desc, b.id asc)
   from page join business_units b on b.id = page.id ${actorNames('b')}`,
    'select count(*) as total from business_units b where b.cluster_id = $3::uuid and b.deleted_at is null',
    '$6',
    '$4',
  ),
)}`;

// ---- users ----------------------------------------------------------------------------------------------------

/**
 * $3 LIKE pattern (lowercase, escaped; '%%' without a search), $4 perpage, $5 offset, $6 page. The matches are
 * found once (the trigram indexes) and both counted and paged from there: a search matches a handful of users.
 */
export const userSearch = `with ${caller(holdsAnywhere('cluster.update'))},
  matches as materialized (select m.id, lower(m.username) as sort_name from users m
    where lower(m.username) like $3 or lower(m.email) like $3 or lower(m.firstname) like $3 or lower(m.lastname) like $3)
${answer(
  pageBody(
    `select json_agg(json_build_object('id', x.id, 'username', x.username, 'email', x.email,
      'userInfo', json_build_object('firstname', x.firstname, 'middlename', x.middlename, 'lastname', x.lastname), 'is_active', x.is_active)
    order by p.sort_name, p.id)
   from (select id, sort_name from matches order by sort_name, id limit $4::int offset $5::int) p join users x on x.id = p.id`,
    'select count(*) as total from matches',
    '$6',
    '$4',
  ),
)}`;

// ---- print-template mappings ----------------------------------------------------------------------------------

/** The codes of the allow and deny lists that name no live business unit (sorted, each once). */
const unknownCodes = (alias: string) => `coalesce((select jsonb_agg(distinct c order by c)
  from jsonb_array_elements_text(coalesce(${alias}.allow_business_unit, '[]'::jsonb) || coalesce(${alias}.deny_business_unit, '[]'::jsonb)) as c
  where not exists (select 1 from business_units b where b.code = c and b.deleted_at is null)), '[]'::jsonb)`;

/**
 * $3 document type, $4 BU code (withBu only). The winner is ranked on the resolve index first; the template, the
 * actor names and the unknown codes are looked up for that one row. The lists are stored by the service as JSON
 * arrays of codes, so they are returned as stored.
 */
export function resolveMapping(withBu: boolean): string {
  const permitted = withBu
    ? `not (coalesce(m.deny_business_unit, '[]'::jsonb) @> jsonb_build_array($4::text))
       and (m.allow_business_unit is null or m.allow_business_unit = '[]'::jsonb or m.allow_business_unit @> jsonb_build_array($4::text))`
    : `(m.allow_business_unit is null or m.allow_business_unit = '[]'::jsonb)`;
  return `with ${caller('true')},
  winner as (select m.* from print_template_mappings m where m.deleted_at is null and m.document_type = $3 and m.is_active and ${permitted}
    order by m.is_default desc, m.display_order asc, m.created_at asc, m.id asc limit 1)
${answer(`select jsonb_build_object('id', m.id, 'document_type', m.document_type, 'report_template_id', m.report_template_id,
    'is_default', m.is_default, 'display_label', m.display_label, 'display_order', m.display_order,
    'allow_business_unit', m.allow_business_unit, 'deny_business_unit', m.deny_business_unit, 'is_active', m.is_active,
    'created_at', ${iso('m.created_at')}, 'updated_at', ${iso('m.updated_at')}, 'created_by_id', m.created_by_id,
    'updated_by_id', m.updated_by_id, 'deleted_by_id', m.deleted_by_id, 'deleted_at', ${iso('m.deleted_at')},
    'template_name', rt.name, 'template_group', rt.report_group,
    'created_by_name', (select ${displayName('a')} from users a where a.id = m.created_by_id),
    'updated_by_name', (select ${displayName('a')} from users a where a.id = m.updated_by_id),
    'unknown_business_unit_codes', ${unknownCodes('m')})::text
  from winner m left join report_templates rt on rt.id = m.report_template_id and rt.deleted_at is null`)}`;
}

// ---- widgets --------------------------------------------------------------------------------------------------

const widgetJson = (
  alias: string,
) => `json_build_object('id', ${alias}.id, 'dataset_id', ${alias}.dataset_id, 'widget_type', ${alias}.widget_type,
  'title', ${alias}.title, 'order_index', ${alias}.order_index, 'created_at', ${iso(`${alias}.created_at`)}, 'updated_at', ${iso(`${alias}.updated_at`)})`;

export const widgetList = `with ${caller('true')}
${answer(`select json_build_object('items', coalesce(json_agg(${widgetJson('w')} order by w.order_index, w.created_at, w.id), '[]'::json), 'count', count(*))::text
  from dashboard_widgets w where w.user_id = $1::uuid`)}`;

/**
 * $3 widget id, $4 title given, $5 title, $6 order_index (null: unchanged), $7 If-Match tags, $8 request id, $9 ip,
 * $10 user agent. The caller's own widget only; locked, version-checked, written and audited in one statement.
 */
export const widgetUpdate = `with ${caller('true')},
  current as (select w.id, w.title, w.order_index, ${fresh('w', '$7')} as fresh from dashboard_widgets w
    where w.id = $3::uuid and w.user_id = $1::uuid and (select standing from caller) = 'ok' for update),
  updated as (update dashboard_widgets w set title = case when $4::boolean then $5::text else w.title end,
      order_index = coalesce($6::int, w.order_index), updated_at = greatest(now(), w.updated_at + interval '1 millisecond')
    from current where w.id = current.id and current.fresh
    returning w.*, current.title as old_title, current.order_index as old_order_index),
  audit as (insert into audit_events (actor_id, actor_name, action, target_type, target_id, cluster_id, request_id, ip, user_agent, changes)
    select $1::uuid, (select ${displayName('a')} from users a where a.id = $1::uuid), 'updateWidget', 'widget', u.id::text, null, $8, $9, $10,
      ${changes([
        { name: 'title', before: 'u.old_title', after: '$5::text', written: '$4::boolean' },
        { name: 'order_index', before: 'u.old_order_index', after: '$6::int', written: '$6::int is not null' },
      ])}
    from updated u)
select case when caller.standing <> 'ok' then caller.standing when c.id is null then 'not-found' when not c.fresh then 'stale' else 'ok' end as standing,
  (select ${widgetJson('u')}::text from updated u) as body
from caller left join current c on true`;

// ---- sign-in --------------------------------------------------------------------------------------------------

/** $1 login (lowercase), $2 client address: the account (username before email) and this client's delay, if any. */
export const signInAccount = `select u.id, u.password_hash, u.is_active,
    (select ceil(extract(epoch from (a.delayed_until - now())))::int from login_attempts a
      where a.account_key = coalesce(u.id::text, $1) and a.client = $2 and a.delayed_until > now()) as delayed_seconds
  from (select 1) one left join lateral (select id, password_hash, is_active from users
    where lower(username) = $1 or lower(email) = $1 order by (lower(username) = $1) desc limit 1) u on true`;

/**
 * $1 user id, $2 client, $3 session id, $4 ip, $5 user agent, $6 refresh-token hash, $7 session/refresh lifetime (s),
 * $8 request id. Forgets the client's failures, opens the session, marks the sign-in, audits it and stores the
 * refresh token: the service's five writes as one statement.
 */
export const signInSucceeded = `with cleared as (delete from login_attempts where account_key = $1 and client = $2),
  session as (insert into sessions (id, user_id, ip, user_agent, expires_at) values ($3::uuid, $1::uuid, $4, $5, now() + make_interval(secs => $7::int))),
  signed as (update users set last_sign_in_at = now() where id = $1::uuid),
  audit as (insert into audit_events (actor_id, actor_name, action, target_type, target_id, request_id, ip, user_agent, changes)
    select a.id, ${displayName('a')}, 'login', 'session', $3, $8, $4, $5, '{}'::jsonb from users a where a.id = $1::uuid),
  refresh as (insert into refresh_tokens (user_id, token_hash, family_id, expires_at) values ($1::uuid, $6, $3::uuid, now() + make_interval(secs => $7::int)))
select 1`;

/** $1 account key, $2 client, $3 actor id or null, $4 login, $5 request id, $6 ip, $7 user agent: count a failure and audit it. */
export const signInFailed = `with counted as (insert into login_attempts (account_key, client, failed_count, last_failed_at) values ($1, $2, 1, now())
    on conflict (account_key, client) do update set failed_count = login_attempts.failed_count + 1, last_failed_at = now())
  insert into audit_events (actor_id, actor_name, action, target_type, target_id, request_id, ip, user_agent, changes)
  select $3::uuid, (select ${displayName('a')} from users a where a.id = $3::uuid), 'login.failed', 'session', null, $5, $6, $7,
    jsonb_build_object('login', jsonb_build_object('before', null, 'after', $4::text))`;
