/** A second factor an account can prove itself with. */
export type SecondFactorMethod = 'totp' | 'recovery_code' | 'passkey';

/** Who must have a second factor (SECOND_FACTOR_REQUIRED, or a super admin's choice stored in the database). */
export type SecondFactorRequirement = 'none' | 'privileged' | 'everyone';

/**
 * Whether an account must set up a second factor now: the policy covers it (super admins and holders of a
 * platform-wide key are the privileged) or an administrator reset its factors, and it has no authenticator app and no
 * passkey (recovery codes stand in for a lost factor; they are not one).
 */
export function mustEnrol(a: {
  requiredFor: SecondFactorRequirement;
  isSuperAdmin: boolean;
  platformKeys: number;
  resetByAdmin: boolean;
  hasFactor: boolean;
}): boolean {
  if (a.hasFactor) return false;
  const privileged = a.isSuperAdmin || a.platformKeys > 0;
  return a.resetByAdmin || a.requiredFor === 'everyone' || (a.requiredFor === 'privileged' && privileged);
}

/** Why an account must enrol: an administrator's reset, else the policy (null: it need not). */
export function enrolmentReason(a: Parameters<typeof mustEnrol>[0]): 'policy' | 'reset' | null {
  if (!mustEnrol(a)) return null;
  return a.resetByAdmin ? 'reset' : 'policy';
}
