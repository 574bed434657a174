/**
 * A step the signed-in account must take before anything else (a new password, a second factor). The permissions
 * say so when they arrive, and any call the server refuses for it says so too; the layout then shows only that step's
 * screen. Taking the step clears it and starts a new generation, which makes the auth provider read the permissions
 * again.
 */
type Listener = () => void;

export function createRequiredStep() {
  let required = false;
  let generation = 0;
  const listeners = new Set<Listener>();
  const set = (value: boolean) => {
    if (required === value) return;
    required = value;
    listeners.forEach((l) => l());
  };

  return {
    /** True while the account must take the step (for useSyncExternalStore). */
    isRequired: (): boolean => required,
    /** What the permissions said when they were read. */
    fromPermissions(mustTake: boolean): void {
      set(mustTake);
    },
    /** A call was refused until the step is taken. */
    require(): void {
      set(true);
    },
    /** The step was taken: the permissions read before it are out of date (an arrow: it is handed on as `changed`). */
    taken: (): void => {
      generation += 1;
      set(false);
    },
    /** Signed out or signed in as someone else: nothing is known about the next account yet. */
    reset(): void {
      set(false);
    },
    generation: (): number => generation,
    // An arrow, not a method: it is handed to useSyncExternalStore on its own, away from this object.
    subscribe: (listener: Listener): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type RequiredStep = ReturnType<typeof createRequiredStep>;
