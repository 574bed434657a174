import type { Knex } from 'knex';

/** created/updated/deleted timestamps and actor ids; actors reference users.id without a FK. */
export function auditColumns(knex: Knex, t: Knex.CreateTableBuilder): void {
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.uuid('created_by_id').nullable();
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.uuid('updated_by_id').nullable();
  t.timestamp('deleted_at', { useTz: true }).nullable();
  t.uuid('deleted_by_id').nullable();
}

export function uuidPk(knex: Knex, t: Knex.CreateTableBuilder): void {
  t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
}

/** One statement per call: PGlite runs a raw string as one prepared statement. */
export async function rawEach(knex: Knex, statements: string[]): Promise<void> {
  for (const sql of statements) await knex.raw(sql);
}
