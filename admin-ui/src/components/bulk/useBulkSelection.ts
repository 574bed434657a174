import { useState } from 'react';
import type { Identifier } from 'react-admin';

export interface BulkSelection {
  /** The selected ids that are on the page, in the page's order. */
  selected: Identifier[];
  isSelected: (id: Identifier) => boolean;
  toggle: (id: Identifier) => void;
  /** Selects every row of the page, or none when all are already selected. */
  toggleAll: () => void;
  allSelected: boolean;
  someSelected: boolean;
  /** Keeps only these ids selected (the rows a bulk action could not change). */
  keepOnly: (ids: readonly Identifier[]) => void;
  clear: () => void;
}

/**
 * The rows selected on one page of a list. A change of `scope` (the filter, sort or page) clears the selection, so an
 * action never applies to rows the user no longer sees.
 */
export function useBulkSelection(pageIds: readonly Identifier[], scope: string): BulkSelection {
  const [state, setState] = useState<{ scope: string; ids: Identifier[] }>({ scope, ids: [] });
  // Reset during render rather than in an effect, so the stale selection is never shown for a frame.
  if (state.scope !== scope) setState({ scope, ids: [] });
  const ids = state.scope === scope ? state.ids : [];

  // A row that left the page (a refresh moved it elsewhere) leaves the selection too.
  const selected = pageIds.filter((id) => ids.includes(id));
  const set = (next: Identifier[]) => setState({ scope, ids: next });

  const allSelected = pageIds.length > 0 && selected.length === pageIds.length;
  return {
    selected,
    isSelected: (id) => selected.includes(id),
    toggle: (id) => set(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id]),
    toggleAll: () => set(allSelected ? [] : [...pageIds]),
    allSelected,
    someSelected: selected.length > 0 && !allSelected,
    keepOnly: (keep) => set(selected.filter((id) => keep.includes(id))),
    clear: () => set([]),
  };
}
