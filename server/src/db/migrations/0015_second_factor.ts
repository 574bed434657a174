import type { Knex } from 'knex';
import { rawEach, uuidPk } from './helpers.js';

/**
 * A second factor: authenticator apps (TOTP, the secret encrypted at rest), recovery codes (hashed, each used once),
 * passkeys (WebAuthn credentials), the pending second step of a sign-in whose password was right, WebAuthn challenges
 * (kept in the database so any replica can finish what another began), the console's policy of who must enrol, and
 * what each session was authenticated with.
 */
/** The columns of users whose change alters a cached standing (migration 0008's list, and the enrolment flag). */
const USER_COLUMNS_0008 =
  'username, email, firstname, middlename, lastname, is_active, is_super_admin, must_change_password';
const USER_COLUMNS = `${USER_COLUMNS_0008}, must_enrol_second_factor`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    /** Set when an administrator resets the account's factors; cleared when it confirms a new one. */
    t.boolean('must_enrol_second_factor').notNullable().defaultTo(false);
  });

  await knex.schema.alterTable('sessions', (t) => {
    /** How the session signed in: password, totp, recovery_code, passkey, sso (a closed list, checked below). */
    t.specificType('methods', 'text[]').notNullable().defaultTo(knex.raw("'{}'::text[]"));
    /** The last use of a second factor in this session: at sign-in, or a step-up. */
    t.timestamp('second_factor_at', { useTz: true }).nullable();
    /** The identity provider's `amr` claim, as sent (at most 10 values). */
    t.specificType('sso_amr', 'text[]').nullable();
  });

  await knex.schema.createTable('user_totp', (t) => {
    t.uuid('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    /** AES-256-GCM of the base32 secret: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
    t.text('secret_encrypted').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    /** Null until the first code confirmed it: an unconfirmed secret is not a factor. */
    t.timestamp('confirmed_at', { useTz: true }).nullable();
    t.timestamp('last_used_at', { useTz: true }).nullable();
    /** The last time step accepted; a code of this step or an earlier one is a replay. */
    t.bigInteger('last_step').nullable();
  });

  await knex.schema.createTable('user_recovery_codes', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    /** HMAC-SHA-256 of the normalised code, keyed from the server secret. */
    t.text('code_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('used_at', { useTz: true }).nullable();
    t.unique(['user_id', 'code_hash'], { indexName: 'user_recovery_codes_user_hash_uq' });
  });

  await knex.schema.createTable('user_passkeys', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    /** The WebAuthn credential id, base64url; never shown or logged. */
    t.text('credential_id').notNullable();
    /** The COSE public key, base64url. */
    t.text('public_key').notNullable();
    t.bigInteger('counter').notNullable().defaultTo(0);
    t.specificType('transports', 'text[]').nullable();
    t.text('device_type').nullable();
    t.boolean('backed_up').notNullable().defaultTo(false);
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.unique(['credential_id'], { indexName: 'user_passkeys_credential_uq' });
    t.index(['user_id'], 'user_passkeys_user_idx');
  });

  // The second step of a sign-in whose password was right: a single-use token, stored hashed, bound to the account.
  await knex.schema.createTable('sign_in_challenges', (t) => {
    uuidPk(knex, t);
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('token_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.text('ip').nullable();
    t.text('user_agent').nullable();
    /** The device cookie's id the password step set or presented, so the second step counts on the same client. */
    t.text('device_id').nullable();
    t.unique(['token_hash'], { indexName: 'sign_in_challenges_token_uq' });
    t.index(['expires_at'], 'sign_in_challenges_expires_idx');
  });

  await knex.schema.createTable('webauthn_challenges', (t) => {
    uuidPk(knex, t);
    /** Null for a passwordless sign-in: the passkey names its account. */
    t.uuid('user_id').nullable().references('id').inTable('users').onDelete('CASCADE');
    /** The session a step-up challenge was issued to. */
    t.uuid('session_id').nullable().references('id').inTable('sessions').onDelete('CASCADE');
    t.text('challenge').notNullable();
    t.text('purpose').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['expires_at'], 'webauthn_challenges_expires_idx');
  });

  // One row at most: a super admin's choice, which overrides SECOND_FACTOR_REQUIRED while it exists.
  await knex.schema.createTable('second_factor_policy', (t) => {
    t.boolean('id').primary().defaultTo(true);
    t.text('required_for').notNullable();
    t.text('sso_sign_ins').notNullable().defaultTo('trusted');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('updated_by').nullable();
  });

  await rawEach(knex, [
    "alter table sessions add constraint sessions_methods_ck check (methods <@ array['password','totp','recovery_code','passkey','sso']::text[])",
    // Sessions that exist already signed in with their password, or with the provider they name.
    "update sessions set methods = case when sso_provider is not null then array['sso']::text[] else array['password']::text[] end",
    "alter table webauthn_challenges add constraint webauthn_challenges_purpose_ck check (purpose in ('sign-in','register','step-up'))",
    'alter table second_factor_policy add constraint second_factor_policy_one_row_ck check (id)',
    "alter table second_factor_policy add constraint second_factor_policy_required_ck check (required_for in ('none','privileged','everyone'))",
    "alter table second_factor_policy add constraint second_factor_policy_sso_ck check (sso_sign_ins in ('trusted','second-factor'))",
    // The caller's standing (cached per user, migration 0008) says whether the account must enrol and whether it has
    // a factor to step up with: its flag, its factors and the policy all announce their changes.
    'drop trigger if exists users_notify_change on users',
    `create trigger users_notify_change after update of ${USER_COLUMNS} or delete on users for each row execute function notify_user_change('id')`,
    "create trigger user_totp_notify_change after insert or delete or update of confirmed_at on user_totp for each row execute function notify_user_change('user_id')",
    "create trigger user_passkeys_notify_change after insert or delete on user_passkeys for each row execute function notify_user_change('user_id')",
    'create trigger second_factor_policy_notify_change after insert or update or delete on second_factor_policy for each statement execute function notify_table_change()',
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await rawEach(knex, [
    'drop trigger if exists second_factor_policy_notify_change on second_factor_policy',
    'drop trigger if exists user_passkeys_notify_change on user_passkeys',
    'drop trigger if exists user_totp_notify_change on user_totp',
    'drop trigger if exists users_notify_change on users',
    `create trigger users_notify_change after update of ${USER_COLUMNS_0008} or delete on users for each row execute function notify_user_change('id')`,
  ]);
  await knex.schema.dropTable('second_factor_policy');
  await knex.schema.dropTable('webauthn_challenges');
  await knex.schema.dropTable('sign_in_challenges');
  await knex.schema.dropTable('user_passkeys');
  await knex.schema.dropTable('user_recovery_codes');
  await knex.schema.dropTable('user_totp');
  await knex.raw('alter table sessions drop constraint if exists sessions_methods_ck');
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('methods');
    t.dropColumn('second_factor_at');
    t.dropColumn('sso_amr');
  });
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('must_enrol_second_factor');
  });
}
