import { describe, expect, it, vi } from 'vitest';
import { precheckBuLicence } from './licencePrecheck';

const provider = (max: number | null, count: number) => ({
  getOne: vi.fn(async () => ({ data: { id: 'c1', max_license_bu: max } })),
  getList: vi.fn(async () => ({ data: [], total: count })),
});

describe('BU licence pre-check', () => {
  it('blocks at the cap with the exact message', async () => {
    const dp = provider(2, 2);
    await expect(precheckBuLicence(dp as never, 'c1')).resolves.toBe(
      'Cannot create business unit: cluster has reached its license limit (2/2)',
    );
    expect(dp.getList).toHaveBeenCalledWith(
      'business-units',
      expect.objectContaining({ filter: { cluster_id: 'c1' } }),
    );
  });
  it('lets the create through below the cap', async () => {
    await expect(precheckBuLicence(provider(3, 2) as never, 'c1')).resolves.toBeNull();
  });
  it('does not count when the cluster is unlimited', async () => {
    const dp = provider(null, 99);
    await expect(precheckBuLicence(dp as never, 'c1')).resolves.toBeNull();
    expect(dp.getList).not.toHaveBeenCalled();
  });
});
