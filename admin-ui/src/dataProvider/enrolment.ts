/**
 * Whether the signed-in account must set up a second factor before anything else (the organisation's policy, or an
 * administrator's reset). The permissions say so when they arrive, and any call the server refuses with
 * `second-factor-enrolment-required` says so too; the layout then shows only the enrolment screen. It mirrors
 * `passwordChange`: a confirmed factor clears it and starts a new generation, so the permissions are read again.
 */
type Listener = () => void;

export function createEnrolment() {
  let required = false;
  let generation = 0;
  const listeners = new Set<Listener>();
  const set = (value: boolean) => {
    if (required === value) return;
    required = value;
    listeners.forEach((l) => l());
  };

  return {
    /** True while the account must enrol (for useSyncExternalStore). */
    isRequired: (): boolean => required,
    /** What the permissions said when they were read. */
    fromPermissions(mustEnrol: boolean): void {
      set(mustEnrol);
    },
    /** A call was refused until a second factor is set up. */
    require(): void {
      set(true);
    },
    /** A factor was confirmed: the permissions read before it are out of date. */
    enrolled(): void {
      generation += 1;
      set(false);
    },
    /** Signed out or signed in as someone else. */
    reset(): void {
      set(false);
    },
    generation: (): number => generation,
    subscribe: (listener: Listener): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type Enrolment = ReturnType<typeof createEnrolment>;

export const enrolment = createEnrolment();
