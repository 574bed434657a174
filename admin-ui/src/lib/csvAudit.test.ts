import { describe, expect, it } from 'vitest';
import { businessUnitCsv, clusterCsv, toCsv } from './csv';
import { auditOf, formatDateTime } from './audit';

const localIso = (y: number, mo: number, d: number, h: number, mi: number, s: number) =>
  new Date(y, mo - 1, d, h, mi, s).toISOString();

describe('timestamps', () => {
  it('formats YYYY-MM-DD HH:mm:ss in local time', () => {
    expect(formatDateTime(localIso(2024, 3, 7, 9, 5, 1))).toBe('2024-03-07 09:05:01');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('nope')).toBe('');
  });
});

describe('audit', () => {
  it('lets flat values win over the nested audit object', () => {
    const a = auditOf({
      created_at: '2024-01-01T00:00:00Z',
      created_by_name: 'Flat',
      audit: { created: { at: '2023-01-01T00:00:00Z', name: 'Nested' }, updated: { at: '2024-02-01T00:00:00Z', name: 'Up' } },
    });
    expect(a.created).toEqual({ at: '2024-01-01T00:00:00Z', by: 'Flat' });
    expect(a.updated).toEqual({ at: '2024-02-01T00:00:00Z', by: 'Up' });
  });
  it('blanks Updated when it equals Created', () => {
    expect(auditOf({ created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00.000Z' }).updated).toBeNull();
    expect(auditOf({ created_at: '2024-01-01T00:00:00Z', updated_at: null }).updated).toBeNull();
  });
  it('reports the deletion', () => {
    expect(auditOf({ deleted_at: '2024-05-05T00:00:00Z', deleted_by_name: 'Del' }).deleted).toEqual({
      at: '2024-05-05T00:00:00Z',
      by: 'Del',
    });
    expect(auditOf({ deleted_at: null }).deleted).toBeNull();
  });
});

describe('CSV export', () => {
  const today = new Date(2025, 0, 9);
  it('names the cluster file and uses the seed columns', () => {
    const { filename, content } = clusterCsv(
      [
        {
          code: 'C1',
          name: 'Group, "One"',
          alias_name: 'G1',
          is_active: true,
          max_license_bu: 5,
          users_count: 7,
          total_max_license_users: 20,
          created_at: localIso(2024, 12, 31, 23, 59, 58),
        },
      ],
      today,
    );
    expect(filename).toBe('clusters-2025-01-09.csv');
    const [header, row] = content.trim().split('\r\n');
    expect(header).toBe('Code,Name,Alias,Status,Max Licensed BUs,Users,Max Licensed Users,Created');
    expect(row).toBe('C1,"Group, ""One""",G1,Active,5,7,20,2024-12-31 23:59:58');
  });
  it('names the BU file and uses the seed columns', () => {
    const { filename, content } = businessUnitCsv(
      [{ code: 'B1', name: 'Hotel', alias_name: null, cluster_name: 'G', is_active: false, max_license_users: null }],
      today,
    );
    expect(filename).toBe('business-units-2025-01-09.csv');
    const [header, row] = content.trim().split('\r\n');
    expect(header).toBe('Code,Name,Alias Name,Cluster,Status,Max Licensed Users,Created');
    expect(row).toBe('B1,Hotel,,G,Inactive,,');
  });
  it('writes a header only for no rows', () => {
    expect(toCsv([], [{ header: 'A', value: () => 1 }])).toBe('A\r\n');
  });
});
