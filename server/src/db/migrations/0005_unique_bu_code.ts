import type { Knex } from 'knex';

/**
 * Business-unit codes become unique among live units across all clusters: print-mapping allow and deny lists and
 * resolve select a unit by its code alone, so a second "A-PKT" in another cluster would silently change what prints.
 * Existing duplicates are reported, never dropped: the migration stops and names them so an operator can rename one.
 */
export async function up(knex: Knex): Promise<void> {
  const duplicates = await knex.raw<{ rows: Array<{ code: string; units: string }> }>(
    `select b.code, string_agg(c.code || '/' || b.name, ', ' order by c.code) as units
       from business_units b join clusters c on c.id = b.cluster_id
      where b.deleted_at is null
      group by b.code
     having count(*) > 1
      order by b.code`,
  );
  if (duplicates.rows.length > 0) {
    const list = duplicates.rows.map((d) => `${d.code} (${d.units})`).join('; ');
    throw new Error(
      `Business-unit codes must be unique among live business units, and these repeat: ${list}. ` +
        'Rename or delete all but one of each (PUT /api-system/business-units/{id}), then start the server again.',
    );
  }
  await knex.raw('create unique index business_units_code_live_uq on business_units (code) where deleted_at is null');
  await knex.raw('drop index if exists business_units_cluster_code_live_uq');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'create unique index if not exists business_units_cluster_code_live_uq on business_units (cluster_id, code) where deleted_at is null',
  );
  await knex.raw('drop index if exists business_units_code_live_uq');
}
