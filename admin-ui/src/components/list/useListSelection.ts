import { useEffect, useRef } from 'react';
import { useListContext, type Identifier } from 'react-admin';

/** The rows selected on one page of a list, as the checkboxes and the bulk toolbar use them. */
export interface ListSelection {
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

/** react-admin's selected ids, seen through the page: a row that left the page leaves the selection too. */
function pageSelection(
  pageIds: readonly Identifier[],
  ids: readonly Identifier[],
  select: (ids: Identifier[]) => void,
): ListSelection {
  const selected = pageIds.filter((id) => ids.includes(id));
  const allSelected = pageIds.length > 0 && selected.length === pageIds.length;
  return {
    selected,
    isSelected: (id) => selected.includes(id),
    toggle: (id) => select(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id]),
    toggleAll: () => select(allSelected ? [] : [...pageIds]),
    allSelected,
    someSelected: selected.length > 0 && !allSelected,
    keepOnly: (keep) => select(selected.filter((id) => keep.includes(id))),
    clear: () => select([]),
  };
}

/**
 * The selection of a react-admin `<List>`: its list context holds it. A change of filter, sort or page clears it, so an
 * action never applies to rows the user no longer sees.
 */
export function useListContextSelection(): ListSelection {
  const list = useListContext<{ id: Identifier }>();
  const { data, selectedIds, onSelect, onUnselectItems, sort, page, perPage } = list;
  const filterValues: unknown = list.filterValues;
  const scope = JSON.stringify([filterValues, sort, page, perPage]);
  const seen = useRef(scope);
  useEffect(() => {
    if (seen.current === scope) return;
    seen.current = scope;
    onUnselectItems();
  }, [scope, onUnselectItems]);
  return pageSelection(
    (data ?? []).map((r) => r.id),
    selectedIds,
    onSelect,
  );
}
