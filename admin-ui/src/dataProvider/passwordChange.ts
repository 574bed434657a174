/**
 * Whether the signed-in account must choose a new password before anything else. The permissions say so when they
 * arrive, and any call the server refuses with `password-change-required` says so too (an administrator may reset
 * the password of an open session); the layout then shows only the password screen. A successful change clears it
 * and starts a new generation, which makes the auth provider read the permissions again.
 */
type Listener = () => void;

export function createPasswordChange() {
  let required = false;
  let generation = 0;
  const listeners = new Set<Listener>();
  const set = (value: boolean) => {
    if (required === value) return;
    required = value;
    listeners.forEach((l) => l());
  };

  return {
    /** True while the account must change its password (for useSyncExternalStore). */
    isRequired: (): boolean => required,
    /** What the permissions said when they were read. */
    fromPermissions(mustChange: boolean): void {
      set(mustChange);
    },
    /** A call was refused until the password is changed. */
    require(): void {
      set(true);
    },
    /** The password was changed: the permissions read before it are out of date. */
    changed(): void {
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

export type PasswordChange = ReturnType<typeof createPasswordChange>;

export const passwordChange = createPasswordChange();
