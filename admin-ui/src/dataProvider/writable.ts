import type { Schemas } from '../types';
import { everyMember } from '../lib/exhaustive';

/** Fields of a request body the console never sends, each with the reason. */
export const NOT_SENT = {
  LoginRequest: { email: 'The sign-in form asks for a username; the contract takes an email in its place.' },
} as const satisfies { readonly [S in keyof Schemas]?: { readonly [F in keyof Schemas[S]]?: string } };

type NotSentOf<S extends keyof Schemas> = S extends keyof typeof NOT_SENT ? keyof (typeof NOT_SENT)[S] : never;

/** The fields of a body the console sends: every field but NOT_SENT's, or the list fails to compile. */
const sends = <S extends keyof Schemas>() => everyMember<Exclude<keyof Schemas[S], NotSentOf<S>>>();

/** A mapping's create and its update take the same fields (the update replaces the whole mapping). */
const MAPPING_FIELDS = [
  'document_type',
  'report_template_id',
  'is_default',
  'display_label',
  'display_order',
  'allow_business_unit',
  'deny_business_unit',
  'is_active',
] as const;

/**
 * What the console sends of each request body. Reads carry read-only fields the contract rejects on write,
 * and forms hold more than they save, so every body is cut down to its list before it leaves.
 */
export const WRITABLE = {
  ServiceAccountCreate: sends<'ServiceAccountCreate'>()(['name', 'description']),
  SecondFactorVerify: sends<'SecondFactorVerify'>()(['second_factor_token', 'method', 'code']),
  PasskeySignInOptionsRequest: sends<'PasskeySignInOptionsRequest'>()(['second_factor_token']),
  PasskeySignIn: sends<'PasskeySignIn'>()(['challenge_id', 'second_factor_token', 'response']),
  PasskeyRegistration: sends<'PasskeyRegistration'>()(['challenge_id', 'name', 'response']),
  TotpConfirm: sends<'TotpConfirm'>()(['code']),
  StepUpRequest: sends<'StepUpRequest'>()(['method', 'code', 'challenge_id', 'response']),
  SecondFactorPolicyUpdate: sends<'SecondFactorPolicyUpdate'>()(['required_for', 'sso_sign_ins']),
  ServiceAccountUpdate: sends<'ServiceAccountUpdate'>()(['name', 'description', 'is_active']),
  ApiTokenCreate: sends<'ApiTokenCreate'>()(['name', 'expires_at', 'scopes']),
  ClusterInput: sends<'ClusterInput'>()(['code', 'alias_name', 'name', 'max_license_bu', 'is_active']),
  BusinessUnitInput: sends<'BusinessUnitInput'>()([
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
    'perpage_format',
    'amount_format',
    'quantity_format',
    'recipe_format',
    'calculation_method',
    'default_currency_id',
    'config',
    'db_connection',
  ]),
  PrintTemplateMappingCreate: sends<'PrintTemplateMappingCreate'>()(MAPPING_FIELDS),
  PrintTemplateMappingUpdate: sends<'PrintTemplateMappingUpdate'>()(MAPPING_FIELDS),
  ClusterUserCreate: sends<'ClusterUserCreate'>()(['user_id', 'cluster_id', 'role', 'is_active', 'parent_bu_id']),
  ClusterUserUpdate: sends<'ClusterUserUpdate'>()(['role', 'parent_bu_id']),
  BusinessUnitUserCreate: sends<'BusinessUnitUserCreate'>()(['user_id', 'business_unit_id', 'role']),
  BusinessUnitUserUpdate: sends<'BusinessUnitUserUpdate'>()(['role', 'is_active']),
  WidgetCreate: sends<'WidgetCreate'>()(['dataset_id', 'widget_type', 'title']),
  WidgetUpdate: sends<'WidgetUpdate'>()(['order_index', 'title']),
  LoginRequest: sends<'LoginRequest'>()(['username', 'password']),
  RefreshTokenRequest: sends<'RefreshTokenRequest'>()(['refresh_token']),
  UserCreate: sends<'UserCreate'>()(['username', 'email', 'firstname', 'middlename', 'lastname', 'password']),
  UserUpdate: sends<'UserUpdate'>()(['username', 'email', 'firstname', 'middlename', 'lastname']),
  PasswordReset: sends<'PasswordReset'>()(['password']),
  PasswordChange: sends<'PasswordChange'>()(['current_password', 'new_password']),
  GrantInput: sends<'GrantInput'>()(['permission_key', 'cluster_id']),
  LifecycleBulkRequest: sends<'LifecycleBulkRequest'>()(['action', 'ids']),
  UserBulkRequest: sends<'UserBulkRequest'>()(['action', 'ids']),
  PrintTemplateMappingBulkRequest: sends<'PrintTemplateMappingBulkRequest'>()(['action', 'ids']),
  SsoExchangeRequest: sends<'SsoExchangeRequest'>()(['code']),
  SsoGroupMappingInput: sends<'SsoGroupMappingInput'>()(['provider', 'group', 'permission_key', 'cluster_id']),
  UserSsoUpdate: sends<'UserSsoUpdate'>()(['sso_only']),
  WebhookCreate: sends<'WebhookCreate'>()(['url', 'description', 'event_types', 'cluster_id']),
  WebhookUpdate: sends<'WebhookUpdate'>()(['url', 'description', 'event_types', 'cluster_id', 'is_active']),
} satisfies { readonly [S in keyof Schemas]?: readonly (keyof Schemas[S])[] };

/** Keeps only the listed fields that hold a value (undefined ones are left out, as JSON would drop them). */
export function pickWritable<T extends object, K extends keyof T>(data: T, fields: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const field of fields) if (data[field] !== undefined) out[field] = data[field];
  return out;
}
