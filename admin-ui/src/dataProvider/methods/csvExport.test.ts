import { describe, expect, it } from 'vitest';
import { localFileName } from './csvExport';

describe('the name an export is saved under', () => {
  // 00:33 on 28 November where the operator is: in Bangkok (UTC+7) the server's UTC clock still reads the 27th.
  const justAfterMidnight = new Date(2026, 10, 28, 0, 33);

  it("keeps the server's base name and dates it with the operator's own day", () => {
    expect(localFileName('clusters-2026-11-27.csv', 'clusters', justAfterMidnight)).toBe('clusters-2026-11-28.csv');
    expect(localFileName('audit-log-2026-11-27.csv', 'audit-events', justAfterMidnight)).toBe(
      'audit-log-2026-11-28.csv',
    );
    expect(localFileName('print-template-mappings.csv', 'x', justAfterMidnight)).toBe(
      'print-template-mappings-2026-11-28.csv',
    );
  });

  it('falls back to the list’s name without a name from the server', () => {
    expect(localFileName(undefined, 'users', justAfterMidnight)).toBe('users-2026-11-28.csv');
  });
});
