import type { Knex } from 'knex';
import { auditColumns, rawEach, uuidPk } from './helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('report_templates', (t) => {
    uuidPk(knex, t);
    t.text('name').notNullable();
    t.text('description');
    t.text('report_group').notNullable();
    t.text('kind').notNullable().checkIn(['print', 'report'], 'report_templates_kind_check');
    t.boolean('is_active').notNullable().defaultTo(true);
    auditColumns(knex, t);
    t.index(['kind', 'report_group'], 'report_templates_kind_group_idx');
  });
  // The template picker lists live templates by name.
  await knex.raw('create index report_templates_name_live_idx on report_templates (name) where deleted_at is null');

  await knex.schema.createTable('print_template_mappings', (t) => {
    uuidPk(knex, t);
    t.string('document_type', 50).notNullable();
    t.uuid('report_template_id').notNullable();
    t.boolean('is_default').notNullable().defaultTo(true);
    t.string('display_label', 255).nullable();
    t.integer('display_order').notNullable().defaultTo(0);
    t.jsonb('allow_business_unit').nullable();
    t.jsonb('deny_business_unit').nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    auditColumns(knex, t);
    t.index(['created_at'], 'print_template_mappings_created_at_idx');
  });
  await rawEach(knex, [
    // The resolve path (every Print click): live, active rows of one type in rank order.
    'create index print_template_mappings_resolve_idx on print_template_mappings (document_type, is_default desc, display_order) where deleted_at is null and is_active',
    // The list's default order and document_type filter, active or not.
    'create index print_template_mappings_list_idx on print_template_mappings (document_type, is_default desc, display_order) where deleted_at is null',
  ]);

  await knex.schema.createTable('dashboard_widgets', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('dataset_id').notNullable();
    t.text('widget_type').notNullable();
    t.text('title').nullable();
    t.integer('order_index').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'dataset_id'], { indexName: 'dashboard_widgets_user_dataset_uq' });
    t.index(['user_id', 'order_index'], 'dashboard_widgets_user_order_idx');
  });

  await knex.schema.createTable('documents', (t) => {
    uuidPk(knex, t);
    t.text('doc_type').notNullable().checkIn(['pr', 'po', 'sr'], 'documents_doc_type_check');
    t.text('doc_no').notNullable();
    t.date('doc_date').notNullable();
    t.decimal('total_amount', 18, 2).notNullable().defaultTo(0);
    t.text('currency_code').notNullable().defaultTo('THB');
    t.uuid('business_unit_id').notNullable().references('id').inTable('business_units');
    t.uuid('requestor_id').references('id').inTable('users');
    t.text('workflow_current_stage').notNullable().defaultTo('');
    t.text('status')
      .notNullable()
      .defaultTo('pending')
      .checkIn(['draft', 'pending', 'approved', 'rejected'], 'documents_status_check');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['doc_type', 'status'], 'documents_type_status_idx');
  });

  await knex.schema.createTable('document_pending_approvers', (t) => {
    t.uuid('document_id').notNullable().references('id').inTable('documents').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.primary(['user_id', 'document_id']);
    // The cascade from documents looks rows up by document.
    t.index(['document_id'], 'document_pending_approvers_document_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('document_pending_approvers');
  await knex.schema.dropTableIfExists('documents');
  await knex.schema.dropTableIfExists('dashboard_widgets');
  await knex.schema.dropTableIfExists('print_template_mappings');
  await knex.schema.dropTableIfExists('report_templates');
}
