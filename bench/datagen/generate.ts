// Benchmark data: the project's migrations and demo seed, then set-based SQL (generate_series) for the bulk rows.
// CLI (bench/datagen/cli.ts): npx tsx bench/datagen/cli.ts --scale 1|10|100|1000 [--database-url postgres://…/bench | --pglite-dir DIR]
import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { copyInto, copyRows } from './copy.js';
import { hashPassword } from '../../server/src/modules/auth/passwords.js';
import { seedIfEmpty } from '../../server/src/db/seed/index.js';
import { migrateLatest } from '../../server/src/db/index.js';
import { exemptFromAudit } from '../../server/src/db/audit-exempt.js';
import { sizesFor, type Scale, type Sizes } from '../lib/scale.js';

/** Every generated user signs in with this password (the login scenario uses it). */
export const BENCH_PASSWORD = 'bench1234';
export const ADMIN = { username: 'admin', password: 'admin123' };
export const DEMO_PASSWORD = 'demo1234';

/** Generated codes carry these prefixes, so the runner can recognise (and count) generated rows. */
export const CLUSTER_PREFIX = 'BX';
export const BU_PREFIX = 'BU';
export const USER_PREFIX = 'bu';

export const benchUsername = (n: number): string => `${USER_PREFIX}${String(n).padStart(6, '0')}`;
export const benchClusterCode = (n: number): string => `${CLUSTER_PREFIX}${String(n).padStart(5, '0')}`;
export const benchBuCode = (n: number): string => `${BU_PREFIX}${String(n).padStart(6, '0')}`;

const FIRST_NAMES = [
  'Somchai',
  'Suda',
  'Anan',
  'Malee',
  'Niran',
  'Pim',
  'John',
  'Emma',
  'Lucas',
  'Sofia',
  'Kenji',
  'Aroon',
  'Kanya',
  'Preecha',
  'Wanida',
  'Chai',
  'Nok',
  'Oliver',
  'Mia',
  'Noah',
  'Ava',
  'Liam',
  'Yuki',
  'Hana',
  'Arjun',
  'Priya',
  'Mateo',
  'Lea',
  'Tariq',
  'Amira',
  'Chen',
  'Mei',
  'Lars',
  'Ingrid',
  'Pedro',
  'Ana',
  'Ivan',
  'Olga',
  'Kofi',
  'Ama',
];
const LAST_NAMES = [
  'Jaidee',
  'Rakthai',
  'Srisuk',
  'Boonmee',
  'Chaiyo',
  'Wongsa',
  'Smith',
  'Brown',
  'Martin',
  'Rossi',
  'Tanaka',
  'Thongdee',
  'Saetang',
  'Kittisak',
  'Phrom',
  'Suwan',
  'Garcia',
  'Muller',
  'Dubois',
  'Silva',
  'Kim',
  'Lee',
  'Nguyen',
  'Sato',
  'Khan',
  'Patel',
  'Costa',
  'Novak',
  'Jensen',
  'Olsen',
  'Rahman',
  'Haddad',
  'Okafor',
  'Mensah',
  'Ivanova',
  'Petrov',
  'Lopez',
  'Moreau',
  'Fischer',
  'Weber',
  'Yamada',
  'Ito',
  'Chow',
  'Wong',
  'Lim',
  'Tan',
  'Ong',
  'Reyes',
  'Santos',
  'Cruz',
  'Bauer',
  'Keller',
  'Hoffmann',
  'Varga',
  'Horvat',
  'Kowalski',
  'Nowak',
  'Berg',
  'Lund',
  'Aziz',
  'Nasser',
];
const GROUP_WORDS = [
  'Siam',
  'Andaman',
  'Lanna',
  'Riverside',
  'Royal',
  'Orchid',
  'Lotus',
  'Coral',
  'Sunrise',
  'Harbour',
  'Emerald',
  'Golden',
  'Palm',
  'Bamboo',
  'Jade',
  'Ivory',
  'Monsoon',
  'Teak',
  'Pearl',
  'Saffron',
];
const DOC_TYPES = ['PR', 'PO', 'GRN', 'SR', 'CN', 'IA', 'PC', 'SC', 'RFQ', 'INV'];

const sqlArray = (xs: string[]): string => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]::text[]`;

export interface GenerateOptions {
  /** progress lines (stderr by default); pass () => {} to silence */
  log?: (line: string) => void;
  /**
   * How the bulk tables are filled on PostgreSQL: 'copy' (default) streams rows made here through `COPY … FROM
   * STDIN`; 'insert' runs one `insert … select … generate_series` per table in the database (PGlite always does).
   */
  method?: 'copy' | 'insert';
}

export interface GenerateResult {
  sizes: Sizes;
  seconds: number;
  steps: Array<{ step: string; seconds: number }>;
  method: 'copy' | 'insert';
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The tables COPY fills; their secondary indexes are built once after the load instead of row by row. */
const COPIED_TABLES = ['users', 'clusters', 'business_units', 'cluster_users', 'bu_users'];
const droppedIndexes = new WeakMap<Knex.Transaction, string[]>();

/**
 * Drops the copied tables' indexes that back no constraint (the primary keys and unique constraints stay, so a
 * duplicate still fails the load), keeping their definitions: building an index over millions of sorted entries once
 * is far cheaper than inserting into it, and into its trigram GIN lists, row by row.
 */
async function dropSecondaryIndexes(trx: Knex.Transaction): Promise<void> {
  const { rows } = await trx.raw<{ rows: Array<{ name: string; definition: string }> }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
      where i.indrelid = any(?::regclass[]) and not i.indisprimary
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [COPIED_TABLES],
  );
  for (const r of rows) await trx.raw(`drop index ${r.name}`);
  droppedIndexes.set(
    trx,
    rows.map((r) => r.definition),
  );
}

async function rebuildIndexes(trx: Knex.Transaction): Promise<void> {
  await trx.raw("set local maintenance_work_mem = '256MB'");
  for (const definition of droppedIndexes.get(trx) ?? []) await trx.raw(definition);
}

/**
 * Migrates, seeds the demo accounts (admin/admin123, operator/demo1234 …) and adds the generated rows in one
 * transaction. The database must be empty (fresh); the runner recreates it.
 */
export async function generateData(knex: Knex, scale: Scale, opts: GenerateOptions = {}): Promise<GenerateResult> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const sizes = sizesFor(scale);
  const started = performance.now();
  const steps: GenerateResult['steps'] = [];
  const step = async (name: string, fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    const seconds = (performance.now() - t) / 1000;
    steps.push({ step: name, seconds });
    log(`  ${name.padEnd(34)} ${seconds.toFixed(2)} s`);
  };

  await step('migrations', () => migrateLatest(knex));
  await step('demo seed', () => seedIfEmpty(knex, { admin: ADMIN, demoPassword: DEMO_PASSWORD, seedDemo: true }));
  const existing = await knex('clusters').count({ n: '*' }).whereLike('code', `${CLUSTER_PREFIX}%`);
  if (Number(existing[0]?.n ?? 0) > 0)
    throw new Error('the database already holds generated rows; generate into a fresh database');

  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const {
    clusters: nC,
    businessUnits: nB,
    users: nU,
    membershipsPerUser: k,
    documents: nD,
    printMappings: nM,
    widgetsPerUser: w,
  } = sizes;
  const method = (knex.client as Knex.Client).config.client === 'pg' ? (opts.method ?? 'copy') : 'insert';
  log(`  bulk tables by ${method === 'copy' ? 'COPY … FROM STDIN' : 'insert … select generate_series'}`);
  const perCluster = Math.max(1, Math.floor(nB / nC));
  const cStep = Math.max(1, Math.floor(nC / k));
  const bStep = Math.max(1, Math.floor(nB / k));

  await knex.transaction(async (trx) => {
    const run = (sql: string, bindings: readonly Knex.RawBinding[] = []) => trx.raw(sql, bindings);
    // Bulk-load settings for this transaction only: no flush wait at commit, fewer GIN pending-list merges (the
    // final vacuum folds the pending lists into the trigram indexes).
    await run('set local synchronous_commit = off');
    await run("set local gin_pending_list_limit = '64MB'");
    await exemptFromAudit(trx, 'benchmark data');
    // COPY's rows are consistent by construction (every id they name was made above), so the per-row work of a live
    // write is skipped for this transaction: foreign-key checks, the audit guard and the change notices are
    // triggers, and `replica` fires none of them (the bench connects as a superuser, which the setting needs).
    if (method === 'copy') await run('set local session_replication_role = replica');
    const admin = (await trx('users').select('id').whereRaw('lower(username) = ?', [ADMIN.username]).first()) as {
      id: string;
    };

    if (method === 'copy') await dropSecondaryIndexes(trx);
    if (method === 'copy') {
      const now = Date.now();
      const at = (msAgo: number) => new Date(now - msAgo).toISOString();
      const userIds = Array.from({ length: nU }, () => randomUUID());
      const clusterIds = Array.from({ length: nC }, () => randomUUID());
      const buIds = Array.from({ length: nB }, () => randomUUID());
      await step(`users (${nU}, COPY)`, () =>
        copyInto(
          trx,
          'users',
          [
            'id',
            'username',
            'email',
            'firstname',
            'middlename',
            'lastname',
            'password_hash',
            'is_active',
            'created_at',
            'updated_at',
          ],
          copyRows(nU, (g) => [
            userIds[g - 1]!,
            `${USER_PREFIX}${pad(g, 6)}`,
            `${USER_PREFIX}${pad(g, 6)}@bench.example`,
            FIRST_NAMES[g % FIRST_NAMES.length]!,
            g % 9 === 0 ? 'K.' : null,
            LAST_NAMES[g % LAST_NAMES.length]!,
            passwordHash,
            g % 50 !== 0,
            at(g * 1000),
            at(g * 1000),
          ]),
        ),
      );
      await step(`clusters (${nC}, COPY)`, () =>
        copyInto(
          trx,
          'clusters',
          [
            'id',
            'code',
            'name',
            'alias_name',
            'max_license_bu',
            'is_active',
            'created_at',
            'created_by_id',
            'updated_at',
            'updated_by_id',
            'deleted_at',
            'deleted_by_id',
          ],
          copyRows(nC, (g) => [
            clusterIds[g - 1]!,
            `${CLUSTER_PREFIX}${pad(g, 5)}`,
            `${GROUP_WORDS[g % GROUP_WORDS.length]} Hotels ${g}`,
            md5(String(g)).slice(0, 3).toUpperCase(),
            g % 3 === 0 ? null : perCluster * 2,
            g % 17 !== 0,
            at(g * 60_000),
            admin.id,
            at(g * 60_000),
            admin.id,
            g % 97 === 0 ? at(0) : null,
            g % 97 === 0 ? admin.id : null,
          ]),
        ),
      );
      await step('id maps (COPY)', async () => {
        for (const [table, ids] of [
          ['bench_u', userIds],
          ['bench_c', clusterIds],
          ['bench_b', buIds],
        ] as const) {
          await run(`create temporary table ${table} (rn int primary key, id uuid not null) on commit drop`);
          await copyInto(
            trx,
            table,
            ['rn', 'id'],
            copyRows(ids.length, (g) => [g, ids[g - 1]!]),
          );
        }
      });
      await step(`business units (${nB}, COPY)`, () =>
        copyInto(
          trx,
          'business_units',
          [
            'id',
            'cluster_id',
            'code',
            'name',
            'alias_name',
            'description',
            'max_license_users',
            'is_hq',
            'is_active',
            'hotel_name',
            'hotel_tel',
            'hotel_email',
            'hotel_address',
            'hotel_zip_code',
            'company_name',
            'company_tel',
            'company_email',
            'tax_no',
            'branch_no',
            'date_format',
            'date_time_format',
            'time_format',
            'timezone',
            'amount_format',
            'quantity_format',
            'calculation_method',
            'config',
            'created_at',
            'created_by_id',
            'updated_at',
            'updated_by_id',
            'deleted_at',
            'deleted_by_id',
          ],
          copyRows(nB, (g) => [
            buIds[g - 1]!,
            clusterIds[Math.floor((g - 1) / perCluster) % nC]!,
            `${BU_PREFIX}${pad(g, 6)}`,
            `${GROUP_WORDS[Math.floor(g / 7) % GROUP_WORDS.length]} Resort ${g}`,
            md5(String(g)).slice(3, 6).toUpperCase(),
            `Generated business unit ${g}`,
            g % 4 === 0 ? null : 50,
            (g - 1) % perCluster === 0,
            g % 23 !== 0,
            `Hotel ${g}`,
            `+66 2 ${pad(g % 10_000_000, 7)}`,
            `frontdesk${g}@bench.example`,
            `${g} Beach Road`,
            pad(10_000 + (g % 90_000), 5),
            `Company ${g} Co., Ltd.`,
            `+66 2 555 ${pad(g % 10_000, 4)}`,
            `ap${g}@bench.example`,
            pad(g, 13),
            pad(g % 100_000, 5),
            'DD/MM/YYYY',
            'DD/MM/YYYY HH:mm',
            'HH:mm',
            'Asia/Bangkok',
            '{"locales":"th-TH","minimumFractionDigits":2}',
            '{"locales":"th-TH","minimumFractionDigits":3}',
            g % 2 === 0 ? 'average' : 'fifo',
            '[]',
            at(g * 1000),
            admin.id,
            at(g * 1000),
            admin.id,
            g % 101 === 0 ? at(0) : null,
            g % 101 === 0 ? admin.id : null,
          ]),
        ),
      );
      // Memberships row by user, then by j: the same pairs as the insert path's cross join.
      const perUser =
        <R>(row: (u: number, j: number) => R) =>
        (i: number) =>
          row(Math.floor((i - 1) / k) + 1, (i - 1) % k);
      await step(`cluster memberships (${nU * k}, COPY)`, () =>
        copyInto(
          trx,
          'cluster_users',
          ['user_id', 'cluster_id', 'role', 'is_active', 'created_by_id', 'updated_by_id'],
          copyRows(
            nU * k,
            perUser((u, j) => [
              userIds[u - 1]!,
              clusterIds[(u - 1 + j * cStep) % nC]!,
              (u + j) % 20 === 0 ? 'admin' : 'user',
              (u + j) % 31 !== 0,
              admin.id,
              admin.id,
            ]),
          ),
        ),
      );
      await step(`BU memberships (${nU * k}, COPY)`, () =>
        copyInto(
          trx,
          'bu_users',
          ['user_id', 'business_unit_id', 'role', 'is_active', 'is_default', 'created_by_id', 'updated_by_id'],
          copyRows(
            nU * k,
            perUser((u, j) => [
              userIds[u - 1]!,
              buIds[(u - 1 + j * bStep) % nB]!,
              (u + j) % 25 === 0 ? 'admin' : 'user',
              true,
              j === 0,
              admin.id,
              admin.id,
            ]),
          ),
        ),
      );
    } else {
      await step(`users (${nU})`, () =>
        run(
          `insert into users (username, email, firstname, middlename, lastname, password_hash, is_active, created_at, updated_at)
           select '${USER_PREFIX}' || lpad(g::text, 6, '0'),
                  '${USER_PREFIX}' || lpad(g::text, 6, '0') || '@bench.example',
                  (${sqlArray(FIRST_NAMES)})[1 + g % ${FIRST_NAMES.length}],
                  case when g % 9 = 0 then 'K.' end,
                  (${sqlArray(LAST_NAMES)})[1 + g % ${LAST_NAMES.length}],
                  ?, g % 50 <> 0, now() - make_interval(secs => g), now() - make_interval(secs => g)
           from generate_series(1, ${nU}) g`,
          [passwordHash],
        ),
      );
      await step(`clusters (${nC})`, () =>
        run(
          `insert into clusters (code, name, alias_name, max_license_bu, is_active, created_at, created_by_id, updated_at, updated_by_id, deleted_at, deleted_by_id)
           select '${CLUSTER_PREFIX}' || lpad(g::text, 5, '0'),
                  (${sqlArray(GROUP_WORDS)})[1 + g % ${GROUP_WORDS.length}] || ' Hotels ' || g,
                  upper(substr(md5(g::text), 1, 3)),
                  case when g % 3 = 0 then null else ${perCluster * 2} end,
                  g % 17 <> 0,
                  now() - make_interval(mins => g), ?, now() - make_interval(mins => g), ?,
                  case when g % 97 = 0 then now() end, case when g % 97 = 0 then ?::uuid end
           from generate_series(1, ${nC}) g`,
          [admin.id, admin.id, admin.id],
        ),
      );
      // Row number → id maps, so memberships and BUs can pick rows arithmetically.
      await step('id maps', async () => {
        await run(`create temporary table bench_u (rn int primary key, id uuid not null) on commit drop`);
        await run(
          `insert into bench_u select row_number() over (order by username), id from users where username like '${USER_PREFIX}%' and username ~ '^${USER_PREFIX}[0-9]{6}$'`,
        );
        await run(`create temporary table bench_c (rn int primary key, id uuid not null) on commit drop`);
        await run(
          `insert into bench_c select row_number() over (order by code), id from clusters where code like '${CLUSTER_PREFIX}%'`,
        );
      });
      await step(`business units (${nB})`, async () => {
        await run(
          `insert into business_units (cluster_id, code, name, alias_name, description, max_license_users, is_hq, is_active,
             hotel_name, hotel_tel, hotel_email, hotel_address, hotel_zip_code, company_name, company_tel, company_email,
             tax_no, branch_no, date_format, date_time_format, time_format, timezone, amount_format, quantity_format,
             calculation_method, config, created_at, created_by_id, updated_at, updated_by_id, deleted_at, deleted_by_id)
           select c.id, '${BU_PREFIX}' || lpad(g::text, 6, '0'),
                  (${sqlArray(GROUP_WORDS)})[1 + (g / 7) % ${GROUP_WORDS.length}] || ' Resort ' || g,
                  upper(substr(md5(g::text), 4, 3)), 'Generated business unit ' || g,
                  case when g % 4 = 0 then null else 50 end, (g - 1) % ${perCluster} = 0, g % 23 <> 0,
                  'Hotel ' || g, '+66 2 ' || lpad((g % 10000000)::text, 7, '0'), 'frontdesk' || g || '@bench.example',
                  g || ' Beach Road', lpad((10000 + g % 90000)::text, 5, '0'), 'Company ' || g || ' Co., Ltd.',
                  '+66 2 555 ' || lpad((g % 10000)::text, 4, '0'), 'ap' || g || '@bench.example',
                  lpad(g::text, 13, '0'), lpad((g % 100000)::text, 5, '0'), 'DD/MM/YYYY', 'DD/MM/YYYY HH:mm', 'HH:mm', 'Asia/Bangkok',
                  '{"locales":"th-TH","minimumFractionDigits":2}'::jsonb, '{"locales":"th-TH","minimumFractionDigits":3}'::jsonb,
                  case when g % 2 = 0 then 'average' else 'fifo' end, '[]'::jsonb,
                  now() - make_interval(secs => g), ?, now() - make_interval(secs => g), ?,
                  case when g % 101 = 0 then now() end, case when g % 101 = 0 then ?::uuid end
           from generate_series(1, ${nB}) g
           join bench_c c on c.rn = ((g - 1) / ${perCluster}) % ${nC} + 1`,
          [admin.id, admin.id, admin.id],
        );
        await run(`create temporary table bench_b (rn int primary key, id uuid not null) on commit drop`);
        await run(
          `insert into bench_b select row_number() over (order by code), id from business_units where code like '${BU_PREFIX}%'`,
        );
      });
      await step(`cluster memberships (${nU * k})`, () =>
        run(
          `insert into cluster_users (user_id, cluster_id, role, is_active, created_by_id, updated_by_id)
           select u.id, c.id, case when (u.rn + j) % 20 = 0 then 'admin' else 'user' end, (u.rn + j) % 31 <> 0, ?, ?
           from bench_u u cross join generate_series(0, ${k - 1}) j
           join bench_c c on c.rn = (u.rn - 1 + j * ${cStep}) % ${nC} + 1`,
          [admin.id, admin.id],
        ),
      );
      await step(`BU memberships (${nU * k})`, () =>
        run(
          `insert into bu_users (user_id, business_unit_id, role, is_active, is_default, created_by_id, updated_by_id)
           select u.id, b.id, case when (u.rn + j) % 25 = 0 then 'admin' else 'user' end, true, j = 0, ?, ?
           from bench_u u cross join generate_series(0, ${k - 1}) j
           join bench_b b on b.rn = (u.rn - 1 + j * ${bStep}) % ${nB} + 1`,
          [admin.id, admin.id],
        ),
      );
    }
    if (method === 'copy') await step('secondary indexes rebuilt', () => rebuildIndexes(trx));
    await step(`print mappings (${nM})`, () =>
      // Every fifth is a default restricted to three BUs (resolve walks past it for other BUs); the rest are
      // alternatives, some with a deny list.
      run(
        `insert into print_template_mappings (document_type, report_template_id, is_default, display_label, display_order,
           allow_business_unit, deny_business_unit, is_active, created_by_id, updated_by_id)
         select t.code, rt.id, g % 5 = 0, t.code || ' layout ' || g, g,
                case when g % 5 = 0 then jsonb_build_array('${BU_PREFIX}' || lpad((g * 3)::text, 6, '0'), '${BU_PREFIX}' || lpad((g * 3 + 1)::text, 6, '0'), '${BU_PREFIX}' || lpad((g * 3 + 2)::text, 6, '0')) end,
                case when g % 3 = 0 then jsonb_build_array('${BU_PREFIX}' || lpad((g * 7)::text, 6, '0')) end,
                g % 11 <> 0, ?, ?
         from generate_series(1, ${nM}) g
         join lateral (select (${sqlArray(DOC_TYPES)})[1 + (g - 1) % ${DOC_TYPES.length}] as code) t on true
         join lateral (select id from report_templates where report_group = t.code and kind = 'print' order by name limit 1) rt on true`,
        [admin.id, admin.id],
      ),
    );
    await step(`documents (${nD})`, async () => {
      await run(
        `insert into documents (doc_type, doc_no, doc_date, total_amount, currency_code, business_unit_id, requestor_id, workflow_current_stage, status, created_at)
         select d.t, upper(d.t) || '-G-' || lpad(g::text, 7, '0'), current_date - (g % 365), ((g::bigint * 7919) % 90000) + 850.25,
                case when g % 9 = 8 then 'USD' else 'THB' end, b.id, u.id,
                case d.t when 'pr' then 'Department Head Approval' when 'po' then 'Purchasing Manager Approval' else 'Store Keeper Approval' end,
                (array['pending','pending','approved','draft','rejected','pending','approved'])[1 + g % 7], now() - make_interval(hours => g)
         from generate_series(1, ${nD}) g
         cross join lateral (select (array['pr','po','sr'])[1 + g % 3] as t) d
         join bench_b b on b.rn = g % ${nB} + 1
         join bench_u u on u.rn = (g * 13) % ${nU} + 1`,
      );
      await run(
        `insert into document_pending_approvers (document_id, user_id)
         select d.id, u.id from (select id, row_number() over (order by doc_no) rn from documents where doc_no like '%-G-%' and status = 'pending') d
         join bench_u u on u.rn = (d.rn * 7) % ${nU} + 1`,
      );
    });
    await step(`widgets (${nU * w})`, () =>
      run(
        `insert into dashboard_widgets (user_id, dataset_id, widget_type, title, order_index)
         select u.id, (array['approvals.my-pending-count','approvals.pending-by-type'])[j], (array['kpi','bar'])[j], null, j * 10
         from bench_u u cross join generate_series(1, ${w}) j`,
      ),
    );
  });
  // Autovacuum would have visited tables this size in production: visibility map and statistics as in steady state.
  await step('vacuum analyze', () => knex.raw('vacuum analyze'));
  const seconds = (performance.now() - started) / 1000;
  log(`  ${'total'.padEnd(34)} ${seconds.toFixed(2)} s`);
  return { sizes, seconds, steps, method };
}

/** Number of generated clusters present (0 on a fresh database or one without the schema). */
export async function generatedClusterCount(knex: Knex): Promise<number> {
  try {
    const [row] = await knex('clusters').count({ n: '*' }).whereLike('code', `${CLUSTER_PREFIX}%`);
    return Number(row?.n ?? 0);
  } catch {
    return 0;
  }
}
