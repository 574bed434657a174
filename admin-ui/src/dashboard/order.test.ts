import { describe, expect, it } from 'vitest';
import { applyOrderPatches, computeOrderPatches, layoutFor, moveToDroppedCell, orderFromLayout, slotOf } from './order';

const widgets = (...ids: string[]) => ids.map((id, n) => ({ id, order_index: (n + 1) * 10 }));

describe('computeOrderPatches', () => {
  it('when the order is unchanged, then nothing is sent', () => {
    expect(computeOrderPatches(widgets('a', 'b', 'c'), ['a', 'b', 'c'])).toEqual([]);
  });

  it('when two neighbours swap, then exactly those two get the other slot', () => {
    expect(computeOrderPatches(widgets('a', 'b', 'c', 'd'), ['a', 'c', 'b', 'd'])).toEqual([
      { id: 'c', order_index: 20 },
      { id: 'b', order_index: 30 },
    ]);
  });

  it('when the first card moves to the end, then every card whose slot changes gets one patch', () => {
    expect(computeOrderPatches(widgets('a', 'b', 'c'), ['b', 'c', 'a'])).toEqual([
      { id: 'b', order_index: 10 },
      { id: 'c', order_index: 20 },
      { id: 'a', order_index: 30 },
    ]);
  });

  it('when stored indexes have gaps, then the new order is laid on slots 10 apart', () => {
    const current = [
      { id: 'a', order_index: 10 },
      { id: 'b', order_index: 50 },
      { id: 'c', order_index: 70 },
    ];
    expect(computeOrderPatches(current, ['a', 'c', 'b'])).toEqual([
      { id: 'c', order_index: 20 },
      { id: 'b', order_index: 30 },
    ]);
  });

  it('when the layout names unknown or repeated ids, then they are ignored; missing widgets keep their order after', () => {
    const patches = computeOrderPatches(widgets('a', 'b', 'c'), ['c', 'ghost', 'c', 'a']);
    expect(patches).toEqual([
      { id: 'c', order_index: 10 },
      { id: 'a', order_index: 20 },
      { id: 'b', order_index: 30 },
    ]);
    expect(new Set(patches.map((p) => p.id)).size).toBe(patches.length);
  });

  it('every resulting index is a multiple of 10 starting at 10', () => {
    const ids = ['e', 'd', 'c', 'b', 'a'];
    const next = applyOrderPatches(
      widgets('a', 'b', 'c', 'd', 'e'),
      computeOrderPatches(widgets('a', 'b', 'c', 'd', 'e'), ids),
    );
    expect(next.map((w) => w.id)).toEqual(ids);
    expect(next.map((w) => w.order_index)).toEqual([10, 20, 30, 40, 50]);
    expect(slotOf(0)).toBe(10);
  });
});

describe('grid layout and reading order', () => {
  it('reads cells top to bottom, then left to right', () => {
    expect(
      orderFromLayout([
        { i: 'c', x: 0, y: 4 },
        { i: 'b', x: 4, y: 0 },
        { i: 'a', x: 0, y: 0 },
      ]),
    ).toEqual(['a', 'b', 'c']);
  });

  it('lays cards out row by row and round-trips to the same order', () => {
    const layout = layoutFor(['a', 'b', 'c', 'd'], 3, 4, 4);
    expect(layout[3]).toEqual({ i: 'd', x: 0, y: 4, w: 4, h: 4 });
    expect(orderFromLayout(layout)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('moveToDroppedCell', () => {
  const ids = ['a', 'b', 'c', 'd'];
  it('when the first card is dropped on the third cell of the first row, then the others close up', () => {
    expect(moveToDroppedCell(ids, 'a', { x: 8, y: 0 }, 3, 4, 4)).toEqual(['b', 'c', 'a', 'd']);
  });
  it('when a card is dropped on the first cell, then it becomes first', () => {
    expect(moveToDroppedCell(ids, 'd', { x: 0, y: 0 }, 3, 4, 4)).toEqual(['d', 'a', 'b', 'c']);
  });
  it('when dropped past the end, then it goes last; an unknown id changes nothing', () => {
    expect(moveToDroppedCell(ids, 'a', { x: 8, y: 8 }, 3, 4, 4)).toEqual(['b', 'c', 'd', 'a']);
    expect(moveToDroppedCell(ids, 'x', { x: 0, y: 0 }, 3, 4, 4)).toEqual(ids);
  });
  it('and the resulting patches move only the cards whose slot changed', () => {
    const current = ids.map((id, n) => ({ id, order_index: (n + 1) * 10 }));
    expect(computeOrderPatches(current, moveToDroppedCell(ids, 'c', { x: 4, y: 0 }, 3, 4, 4))).toEqual([
      { id: 'c', order_index: 20 },
      { id: 'b', order_index: 30 },
    ]);
  });
});
