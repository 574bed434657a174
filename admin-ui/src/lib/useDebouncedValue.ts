import { useEffect, useState } from 'react';

/** Search inputs wait this long after the last keystroke before querying (the specified debounce). */
export const SEARCH_DEBOUNCE_MS = 400;

/** Returns `value` once it has stayed unchanged for `delay` ms. */
export function useDebouncedValue<T>(value: T, delay: number = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
