import type { CategoricalPoint } from '../types';

/** A pie card has room for this many slices and legend rows; more would run the legend over the card. */
const PIE_MAX_SLICES = 6;

/**
 * The slices of a pie: the largest categories as they are and, when there are more than fit, the rest summed
 * into one last slice with the given label. Totals are kept, so every slice's share stays true.
 */
export function pieSlices(
  points: readonly CategoricalPoint[],
  otherLabel: string,
  max = PIE_MAX_SLICES,
): CategoricalPoint[] {
  if (points.length <= max) return [...points];
  const bySize = [...points].sort((a, b) => b.value - a.value);
  const kept = bySize.slice(0, max - 1);
  const rest = bySize.slice(max - 1).reduce((sum, p) => sum + p.value, 0);
  return [...kept, { label: otherLabel, value: rest }];
}
