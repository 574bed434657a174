import type { Widget } from '../types';

/** Widgets sit in slots 10 apart (10, 20, 30, …); the slot of the n-th card (from 0). */
const ORDER_STEP = 10;
export const slotOf = (position: number) => (position + 1) * ORDER_STEP;

type Ordered = Pick<Widget, 'id' | 'order_index'>;
/** One PATCH of a reorder: the widget and its new slot. */
type OrderPatch = Ordered;

/**
 * The PATCHes a reorder needs: every widget takes the slot of its new position, and only the
 * widgets whose slot changes are sent (one PATCH each). Ids unknown to `current` are ignored;
 * widgets missing from `orderedIds` keep their relative order after the listed ones.
 */
export function computeOrderPatches(current: readonly Ordered[], orderedIds: readonly string[]): OrderPatch[] {
  const byId = new Map(current.map((w) => [w.id, w]));
  const seen = new Set<string>();
  const sequence: Ordered[] = [];
  for (const id of orderedIds) {
    const w = byId.get(id);
    if (w && !seen.has(id)) {
      seen.add(id);
      sequence.push(w);
    }
  }
  const rest = [...current].filter((w) => !seen.has(w.id)).sort((a, b) => a.order_index - b.order_index);
  return [...sequence, ...rest]
    .map((w, position) => ({ id: w.id, from: w.order_index, order_index: slotOf(position) }))
    .filter((p) => p.from !== p.order_index)
    .map(({ id, order_index }) => ({ id, order_index }));
}

/** Applies patches to a widget list and returns it sorted by the new order (the cache is updated at once). */
export function applyOrderPatches<T extends Ordered>(widgets: readonly T[], patches: readonly OrderPatch[]): T[] {
  const next = new Map(patches.map((p) => [p.id, p.order_index]));
  return widgets
    .map((w) => (next.has(w.id) ? { ...w, order_index: next.get(w.id) as number } : w))
    .sort((a, b) => a.order_index - b.order_index);
}

/** Reading order of grid cells: top to bottom, then left to right. */
export function orderFromLayout(layout: readonly { i: string; x: number; y: number }[]): string[] {
  return [...layout].sort((a, b) => a.y - b.y || a.x - b.x).map((item) => item.i);
}

/** Grid cells for widgets in order, `perRow` cards per row, each `w`×`h` grid units. */
export function layoutFor(ids: readonly string[], perRow: number, w: number, h: number) {
  return ids.map((i, n) => ({ i, x: (n % perRow) * w, y: Math.floor(n / perRow) * h, w, h }));
}

/**
 * A drop as a list move: the dragged card takes the position of the grid cell it was dropped on
 * (row by row, clamped to the list) and the others close up around it, as in a sorted list.
 */
export function moveToDroppedCell(
  ids: readonly string[],
  draggedId: string,
  cell: { x: number; y: number },
  perRow: number,
  w: number,
  h: number,
): string[] {
  const from = ids.indexOf(draggedId);
  if (from < 0) return [...ids];
  const column = Math.min(perRow - 1, Math.max(0, Math.round(cell.x / w)));
  const row = Math.max(0, Math.round(cell.y / h));
  const to = Math.min(ids.length - 1, row * perRow + column);
  const rest = ids.filter((id) => id !== draggedId);
  return [...rest.slice(0, to), draggedId, ...rest.slice(to)];
}
