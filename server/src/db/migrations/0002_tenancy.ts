import type { Knex } from 'knex';
import { auditColumns, rawEach, uuidPk } from './helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('currencies', (t) => {
    uuidPk(knex, t);
    t.text('code').notNullable().unique();
    t.text('name').notNullable();
    t.text('symbol');
    t.integer('decimal_places').notNullable().defaultTo(2);
    t.text('description');
    t.boolean('is_active').notNullable().defaultTo(true);
  });

  await knex.schema.createTable('clusters', (t) => {
    uuidPk(knex, t);
    t.text('code').notNullable();
    t.text('name').notNullable();
    t.string('alias_name', 3).nullable();
    t.integer('max_license_bu').nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('logo_key').nullable();
    t.text('avatar_key').nullable();
    auditColumns(knex, t);
    t.index(['created_at'], 'clusters_created_at_idx');
    t.index(['code'], 'clusters_code_idx');
    t.index(['name'], 'clusters_name_idx');
    // Every sortable list column has an index (the contract's ClusterSort whitelist).
    t.index(['alias_name'], 'clusters_alias_name_idx');
    t.index(['max_license_bu'], 'clusters_max_license_bu_idx');
    t.index(['updated_at'], 'clusters_updated_at_idx');
    t.index(['deleted_at'], 'clusters_deleted_at_idx');
  });
  await rawEach(knex, [
    'create unique index clusters_code_name_live_uq on clusters (code, name) where deleted_at is null',
    'create index clusters_code_trgm on clusters using gin (lower(code) gin_trgm_ops)',
    'create index clusters_name_trgm on clusters using gin (lower(name) gin_trgm_ops)',
    'create index clusters_alias_name_trgm on clusters using gin (lower(alias_name) gin_trgm_ops)',
  ]);

  await knex.schema.createTable('business_units', (t) => {
    uuidPk(knex, t);
    t.uuid('cluster_id').notNullable().references('id').inTable('clusters');
    t.text('code').notNullable();
    t.text('name').notNullable();
    t.text('alias_name');
    t.text('description');
    t.integer('max_license_users').nullable();
    t.boolean('is_hq').notNullable().defaultTo(false);
    t.boolean('is_active').notNullable().defaultTo(true);
    for (const c of [
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
    ])
      t.text(c).nullable();
    t.jsonb('perpage_format').nullable();
    t.jsonb('amount_format').nullable();
    t.jsonb('quantity_format').nullable();
    t.jsonb('recipe_format').nullable();
    t.text('calculation_method').nullable().checkIn(['average', 'fifo'], 'business_units_calculation_method_check');
    t.uuid('default_currency_id').nullable().references('id').inTable('currencies');
    t.jsonb('config').notNullable().defaultTo(knex.raw("'[]'::jsonb"));
    t.text('db_connection').nullable();
    t.text('logo_key').nullable();
    t.text('avatar_key').nullable();
    auditColumns(knex, t);
    t.index(['cluster_id', 'deleted_at'], 'business_units_cluster_deleted_idx');
    t.index(['created_at'], 'business_units_created_at_idx');
    t.index(['name'], 'business_units_name_idx');
    // Every sortable list column has an index (the contract's BusinessUnitSort whitelist; cluster_name uses clusters_name_idx).
    t.index(['code'], 'business_units_code_idx');
    t.index(['alias_name'], 'business_units_alias_name_idx');
    t.index(['updated_at'], 'business_units_updated_at_idx');
    t.index(['deleted_at'], 'business_units_deleted_at_idx');
    t.index(['default_currency_id'], 'business_units_default_currency_idx');
  });
  await rawEach(knex, [
    'create unique index business_units_cluster_code_live_uq on business_units (cluster_id, code) where deleted_at is null',
    'create index business_units_code_trgm on business_units using gin (lower(code) gin_trgm_ops)',
    'create index business_units_name_trgm on business_units using gin (lower(name) gin_trgm_ops)',
    'create index business_units_alias_name_trgm on business_units using gin (lower(alias_name) gin_trgm_ops)',
  ]);

  await knex.schema.createTable('cluster_users', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.uuid('cluster_id').notNullable().references('id').inTable('clusters');
    t.text('role').notNullable().defaultTo('user').checkIn(['admin', 'user'], 'cluster_users_role_check');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.uuid('parent_bu_id').nullable().references('id').inTable('business_units');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('created_by_id').nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('updated_by_id').nullable();
    t.unique(['user_id', 'cluster_id'], { indexName: 'cluster_users_user_cluster_uq' });
    t.index(['cluster_id'], 'cluster_users_cluster_idx');
    t.index(['parent_bu_id'], 'cluster_users_parent_bu_idx');
  });

  await knex.schema.createTable('bu_users', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.uuid('business_unit_id').notNullable().references('id').inTable('business_units');
    t.text('role').notNullable().defaultTo('user').checkIn(['admin', 'user'], 'bu_users_role_check');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('created_by_id').nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('updated_by_id').nullable();
    t.unique(['user_id', 'business_unit_id'], { indexName: 'bu_users_user_bu_uq' });
    t.index(['business_unit_id'], 'bu_users_bu_idx');
  });

  await knex.schema.alterTable('permission_grants', (t) => {
    t.foreign('cluster_id', 'permission_grants_cluster_fk').references('id').inTable('clusters').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('permission_grants', (t) => {
    t.dropForeign(['cluster_id'], 'permission_grants_cluster_fk');
  });
  await knex.schema.dropTableIfExists('bu_users');
  await knex.schema.dropTableIfExists('cluster_users');
  await knex.schema.dropTableIfExists('business_units');
  await knex.schema.dropTableIfExists('clusters');
  await knex.schema.dropTableIfExists('currencies');
}
