// Authenticator codes computed the way an authenticator app does (RFC 6238: SHA-1, 6 digits, 30 s), from the key the
// console showed. The server refuses a code of a step it has already accepted (or an earlier one), so each code a flow
// uses is of a later step than the last: the next step (which the server accepts as clock drift) when the current
// one is used, else a wait for the clock to catch up.
import type { TOTP } from 'otpauth';

const PERIOD_S = 30;

export class Authenticator {
  // Loaded on first use, so a flow file whose other flows need no code does not need the library to load.
  private readonly totp: Promise<TOTP>;
  private lastStep = -1;

  constructor(base32Secret: string) {
    this.totp = import('otpauth').then(
      ({ Secret, TOTP }) =>
        new TOTP({ secret: Secret.fromBase32(base32Secret), algorithm: 'SHA1', digits: 6, period: PERIOD_S }),
    );
  }

  /** A code the server has not seen yet: of the current step, or of the next one when the current one is used. */
  async nextCode(): Promise<string> {
    let now = Date.now();
    let current = Math.floor(now / 1000 / PERIOD_S);
    // Two steps ahead would be outside the server's tolerance: wait until the clock is one step behind at most.
    while (this.lastStep + 1 > current + 1) {
      await new Promise((resolve) => setTimeout(resolve, (current + 1) * PERIOD_S * 1000 - now + 50));
      now = Date.now();
      current = Math.floor(now / 1000 / PERIOD_S);
    }
    const step = Math.max(current, this.lastStep + 1);
    // Close to the end of the current step, the next one is the safer choice: it is still accepted after the turn.
    const late = step === current && now % (PERIOD_S * 1000) > (PERIOD_S - 3) * 1000;
    const chosen = late ? step + 1 : step;
    this.lastStep = chosen;
    return (await this.totp).generate({ timestamp: chosen * PERIOD_S * 1000 });
  }
}
