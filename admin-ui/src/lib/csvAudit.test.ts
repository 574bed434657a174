import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';
import { auditOf, formatDate } from './audit';

describe('export file dates', () => {
  it('writes the local day as YYYY-MM-DD', () => {
    expect(formatDate(new Date(2024, 2, 7, 0, 30))).toBe('2024-03-07');
    expect(formatDate(new Date(2024, 11, 31, 23, 59))).toBe('2024-12-31');
  });
});

describe('audit', () => {
  it('lets flat values win over the nested audit object', () => {
    const a = auditOf({
      created_at: '2024-01-01T00:00:00Z',
      created_by_name: 'Flat',
      audit: {
        created: { at: '2023-01-01T00:00:00Z', name: 'Nested' },
        updated: { at: '2024-02-01T00:00:00Z', name: 'Up' },
      },
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

describe('CSV built in the browser', () => {
  const columns = [
    { header: 'Name', value: (r: { name: string; n: number | null }) => r.name },
    { header: 'N', value: (r: { name: string; n: number | null }) => r.n },
  ];
  it('quotes cells with commas, quotes, line breaks or edge spaces', () => {
    expect(
      toCsv(
        [
          { name: 'Group, "One"', n: 5 },
          { name: ' pad', n: null },
          { name: 'a\nb', n: 0 },
        ],
        columns,
      ),
    ).toBe('Name,N\r\n"Group, ""One""",5\r\n" pad",\r\n"a\nb",0\r\n');
  });
  it('writes a header only for no rows', () => {
    expect(toCsv([], [{ header: 'A', value: () => 1 }])).toBe('A\r\n');
  });
});
