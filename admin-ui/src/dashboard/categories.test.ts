import { describe, expect, it } from 'vitest';
import { pieSlices } from './categories';

const points = (values: number[]) => values.map((value, i) => ({ label: `C${i + 1}`, value }));

describe('pieSlices', () => {
  it('when the categories fit, then they are shown as they are, in their order', () => {
    expect(pieSlices(points([3, 9, 1]), 'Other', 6)).toEqual(points([3, 9, 1]));
  });

  it('when exactly the maximum fit, then no "Other" slice is made', () => {
    expect(pieSlices(points([1, 2, 3, 4, 5, 6]), 'Other', 6)).toHaveLength(6);
  });

  it('when there are more, then the largest stay and the rest are summed into the last slice', () => {
    const slices = pieSlices(points([5, 40, 1, 30, 2, 20, 3, 10, 4, 50]), 'Other', 6);
    expect(slices.map((s) => s.label)).toEqual(['C10', 'C2', 'C4', 'C6', 'C8', 'Other']);
    expect(slices.at(-1)!.value).toBe(5 + 1 + 2 + 3 + 4);
    expect(slices.reduce((sum, s) => sum + s.value, 0)).toBe(165);
  });
});
