/**
 * Signing in again in place. When a call meets a session that can no longer be refreshed, the session fetch asks
 * here instead of giving up: a dialog mounted in the layout (`attach`) asks for the password, every waiting call is
 * retried once it is answered, and the screen (an unsaved form above all) stays as it was. Without a mounted dialog
 * (the login page, component tests) a lost session ends as before.
 */

/** The user chose to sign out instead of signing in again: the waiting calls end with this, never with a success. */
export class SessionEndedError extends Error {
  constructor() {
    super('app.session.ended');
    this.name = 'SessionEndedError';
  }
}

type Listener = () => void;

export function createReauth() {
  let dialogs = 0;
  let lastUsername = '';
  let pending: { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } | null = null;
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((l) => l());

  return {
    /** Registers a dialog able to ask; returns its removal. */
    attach(): () => void {
      dialogs += 1;
      return () => {
        dialogs -= 1;
      };
    },
    /**
     * Asks the user to sign in again; every caller shares one question. Resolves true once signed in, false when
     * nobody can ask; rejects with SessionEndedError when the user signs out instead.
     */
    async request(): Promise<boolean> {
      if (dialogs === 0) return false;
      if (!pending) {
        let resolve!: () => void;
        let reject!: (e: Error) => void;
        const promise = new Promise<void>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        pending = { promise, resolve, reject };
        emit();
      }
      await pending.promise;
      return true;
    },
    /** True while the question is open (for useSyncExternalStore). */
    isAsking: (): boolean => pending !== null,
    /** The question was answered by a new sign-in: the waiting calls go on. */
    signedIn(): void {
      const p = pending;
      pending = null;
      emit();
      p?.resolve();
    },
    /** The user signed out instead: the waiting calls fail with SessionEndedError. */
    signedOut(): void {
      const p = pending;
      pending = null;
      emit();
      p?.reject(new SessionEndedError());
    },
    // An arrow, not a method: it is handed to useSyncExternalStore on its own, away from this object.
    subscribe: (listener: Listener): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The username of the session, to fill the dialog in. */
    rememberUser(username: string | null | undefined): void {
      if (username) lastUsername = username;
    },
    lastUser: (): string => lastUsername,
  };
}

export type Reauth = ReturnType<typeof createReauth>;

export const reauth = createReauth();
