/**
 * Confirming it is you in place (step-up). When a sensitive call is refused with `step-up-required`, the session fetch
 * asks here: a dialog mounted in the layout (`attach`) asks for a code or a passkey, and the waiting call is sent again
 * once it is answered, so the operator's action completes and the screen (a form above all) stays as it was. Without a
 * mounted dialog (the login page, component tests) the refusal is returned as it came. It mirrors `reauth`.
 */

/** The second factors the account can confirm with, as the refusal names them. */
export type StepUpMethod = 'totp' | 'recovery_code' | 'passkey';

const METHODS: readonly StepUpMethod[] = ['totp', 'recovery_code', 'passkey'];

/** The methods a `step-up-required` problem lists (all of them when it lists none the console knows). */
export function stepUpMethodsOf(body: unknown): StepUpMethod[] {
  const listed = typeof body === 'object' && body !== null ? (body as { methods?: unknown }).methods : undefined;
  const known = Array.isArray(listed) ? METHODS.filter((m) => listed.includes(m)) : [];
  return known.length ? known : [...METHODS];
}

type Listener = () => void;

export function createStepUp() {
  let dialogs = 0;
  let pending: { methods: StepUpMethod[]; promise: Promise<boolean>; resolve: (ok: boolean) => void } | null = null;
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((l) => l());

  const settle = (ok: boolean) => {
    const p = pending;
    pending = null;
    emit();
    p?.resolve(ok);
  };

  return {
    /** Registers a dialog able to ask; returns its removal. */
    attach(): () => void {
      dialogs += 1;
      return () => {
        dialogs -= 1;
      };
    },
    /**
     * Asks the user to confirm it is them; every waiting call shares one question. Resolves true once confirmed
     * (the call is then sent again), false when cancelled or when nobody can ask.
     */
    request(methods: StepUpMethod[]): Promise<boolean> {
      if (dialogs === 0) return Promise.resolve(false);
      if (!pending) {
        let resolve!: (ok: boolean) => void;
        const promise = new Promise<boolean>((res) => (resolve = res));
        pending = { methods, promise, resolve };
        emit();
      }
      return pending.promise;
    },
    /** True while the question is open (for useSyncExternalStore). */
    isAsking: (): boolean => pending !== null,
    /** The methods the open question offers. */
    methods: (): StepUpMethod[] => pending?.methods ?? [],
    /** Confirmed: the waiting calls are sent again. */
    confirmed: (): void => settle(true),
    /** Cancelled: the waiting calls end with the refusal they met. */
    cancelled: (): void => settle(false),
    // An arrow, not a method: it is handed to useSyncExternalStore on its own, away from this object.
    subscribe: (listener: Listener): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type StepUp = ReturnType<typeof createStepUp>;

export const stepUp = createStepUp();
