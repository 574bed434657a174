import type { Identifier } from 'react-admin';
import type {
  AuditEvent,
  AuditEventPage,
  AuditEventQuery,
  Grant,
  GrantInput,
  GrantList,
  UserAccount,
} from '../../types';
import type { ApiClient } from '../api';
import { unwrap } from '../outcome';
import { WRITABLE, pickWritable } from '../writable';

const byId = (id: Identifier) => ({ params: { path: { id: String(id) } } });

/** Drops the empty filters, so the query carries only what the caller chose. */
export function auditQuery(query: AuditEventQuery): AuditEventQuery {
  const out: AuditEventQuery = {};
  for (const [key, value] of Object.entries(query) as [
    keyof AuditEventQuery,
    AuditEventQuery[keyof AuditEventQuery],
  ][]) {
    if (value !== undefined && value !== null && value !== '') Object.assign(out, { [key]: value });
  }
  return out;
}

/** Operator accounts, their grants and the audit trail. */
export function userMethods(c: ApiClient) {
  return {
    /** Ends every session of the account; the last active super admin cannot be deactivated (409). */
    async deactivateUser(userId: Identifier): Promise<UserAccount> {
      return unwrap(await c.POST('/api-system/users/{id}/deactivate', byId(userId)));
    },
    async reactivateUser(userId: Identifier): Promise<UserAccount> {
      return unwrap(await c.POST('/api-system/users/{id}/reactivate', byId(userId)));
    },
    /** A new initial password the user must change at the next sign-in; a weak one answers 400 with the rule. */
    async resetUserPassword(userId: Identifier, password: string): Promise<UserAccount> {
      return unwrap(
        await c.POST('/api-system/users/{id}/password-reset', {
          ...byId(userId),
          body: pickWritable({ password }, WRITABLE.PasswordReset),
        }),
      );
    },
    async unlockUser(userId: Identifier): Promise<UserAccount> {
      return unwrap(await c.POST('/api-system/users/{id}/unlock', byId(userId)));
    },
    async revokeSuperAdmin(userId: Identifier): Promise<UserAccount> {
      return unwrap(await c.DELETE('/api-system/users/{id}/super-admin', byId(userId)));
    },

    async getUserGrants(userId: Identifier): Promise<GrantList> {
      return unwrap(await c.GET('/api-system/users/{id}/grants', byId(userId)));
    },
    async addUserGrant(userId: Identifier, grant: GrantInput): Promise<Grant> {
      return unwrap(
        await c.POST('/api-system/users/{id}/grants', {
          ...byId(userId),
          body: pickWritable(grant, WRITABLE.GrantInput),
        }),
      );
    },
    async removeUserGrant(userId: Identifier, grantId: Identifier): Promise<void> {
      unwrap(
        await c.DELETE('/api-system/users/{id}/grants/{grantId}', {
          params: { path: { id: String(userId), grantId: String(grantId) } },
        }),
      );
    },

    /** The audit trail, newest first; empty filters are left out of the query. */
    async listAuditEvents(query: AuditEventQuery = {}): Promise<AuditEventPage> {
      return unwrap(await c.GET('/api-system/audit-events', { params: { query: auditQuery(query) } }));
    },

    /** Puts back the values an event's field change replaced: the revert's own event; 412 when the record changed since. */
    async revertAuditEvent(id: string): Promise<AuditEvent> {
      return unwrap(await c.POST('/api-system/audit-events/{id}/revert', { params: { path: { id } } }));
    },
  };
}
