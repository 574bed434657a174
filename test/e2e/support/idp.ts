// The people of the test identity provider that global-setup starts (test/support/oidc-idp.ts), by account id (the
// ID token's subject), and the product's names for the providers it is given.
import type { IdpAccount } from '../../support/oidc-idp.js';

export const IDP_ACCOUNTS = {
  // No account of the product has this email: its first sign-in creates one, with the grants its groups map to.
  'sso-operator': {
    email: 'sso.operator@andaman.example',
    email_verified: true,
    given_name: 'Sunee',
    family_name: 'Operator',
    groups: ['hotel-operators'],
  },
  // Sets up an authenticator app after a first sign-in, then is asked for it when the policy has single sign-ons
  // take the second factor too.
  'sso-second-factor': {
    email: 'sso.second.factor@andaman.example',
    email_verified: true,
    given_name: 'Kanya',
    family_name: 'Twostep',
  },
} satisfies Record<string, IdpAccount>;

/** The providers of OIDC_PROVIDERS: the test provider, and one nobody answers for (nothing listens on port 9). */
export const SSO_PROVIDERS = {
  testIdp: { id: 'test-idp', display_name: 'Test IdP' },
  down: { id: 'down', display_name: 'Down IdP' },
} as const;
