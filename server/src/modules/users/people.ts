import { NotFoundError } from '../../core/errors.js';

/** Which kind of account a `users` row is (docs/adr/0027-service-accounts-and-api-tokens.md). */
export type AccountKind = 'person' | 'service';

/** Where a service account is managed: its own screen and operations, not the people's. */
export const serviceAccountPath = (id: string) => `/api-system/service-accounts/${id}`;

/**
 * The people operations (`/api-system/users/{id}…`, memberships, single sign-on settings) act on people only. A
 * service account is a `users` row too, so its id reaches them; without this it could be given a password, an email
 * or a membership, or be deactivated, past the checks its own operations make. It is answered as missing from the
 * people (the people's list never shows it), with a pointer to where it is managed. Its grants are the exception:
 * they are given and taken through the users module's grant operations (ADR 0027), which do not call this.
 */
export function assertPerson(account: { id: string; username: string; kind: AccountKind }): void {
  if (account.kind !== 'service') return;
  throw new NotFoundError(
    `${account.username} is a service account, not a person: manage it under Service accounts, ${serviceAccountPath(account.id)}`,
  );
}

/**
 * Members of clusters and business units are people (their licences are people's seats): a service account reaches
 * what its grants give it, and is never a member, by the membership operations or the membership import alike.
 */
export function assertMayBeMember(account: { id: string; username: string; kind: AccountKind }): void {
  if (account.kind !== 'service') return;
  throw new NotFoundError(serviceAccountMemberDetail(account));
}

/** Why a service account is no member, and where its access is managed instead. */
export const serviceAccountMemberDetail = (account: { id: string; username: string }) =>
  `${account.username} is a service account, and a service account is never a member of a cluster or business unit: ` +
  `what it may reach is given by its grants, under Service accounts, ${serviceAccountPath(account.id)}`;
