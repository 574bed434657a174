import { describe, expect, it } from 'vitest';
import { fromListEnvelope, toListQuery } from './query';
import { toHttpError } from './errors';

describe('list query mapping', () => {
  it('maps paging, sort and filters onto the contract parameters', () => {
    expect(
      toListQuery({
        pagination: { page: 2, perPage: 25 },
        sort: { field: 'name', order: 'ASC' },
        filter: { search: ' hotel ', is_active: false, deleted: 'include', cluster_id: 'c1', unknown: 'x' },
      }),
    ).toEqual({
      page: 2,
      perpage: 25,
      sort: 'name:asc',
      search: 'hotel',
      is_active: false,
      deleted: 'include',
      cluster_id: 'c1',
    });
  });
  it('defaults the sort to created_at:desc and skips an empty search', () => {
    expect(
      toListQuery({ pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: { q: '' } }),
    ).toEqual({
      page: 1,
      perpage: 10,
      sort: 'created_at:desc',
    });
  });
  it('passes perpage=-1 through for "all rows"', () => {
    expect(toListQuery({ pagination: { page: 1, perPage: -1 } }).perpage).toBe(-1);
  });
  it('reads the envelope', () => {
    expect(fromListEnvelope({ data: [{ id: 1 }], paginate: { total: 11, page: 1, perpage: 10, pages: 2 } })).toEqual({
      data: [{ id: 1 }],
      total: 11,
      pageInfo: { hasNextPage: true, hasPreviousPage: false },
    });
  });
});

describe('problem → HttpError', () => {
  it('uses detail as the message and maps field errors', () => {
    const err = toHttpError(400, {
      title: 'Bad Request',
      status: 400,
      detail: 'code is required',
      errors: [{ path: '/body/code', message: 'must be present' }],
    });
    expect(err.message).toBe('code is required');
    expect(err.status).toBe(400);
    expect((err.body as { errors?: unknown }).errors).toEqual({ code: 'must be present' });
  });
  it('keeps the licence message from a 409', () => {
    const msg = 'Cannot create business unit: cluster has reached its license limit (2/2)';
    expect(toHttpError(409, { title: 'Conflict', detail: msg }).message).toBe(msg);
  });
});
