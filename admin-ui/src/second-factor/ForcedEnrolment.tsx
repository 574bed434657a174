import { useState } from 'react';
import { useLogout, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { Tab, Tabs, Typography } from '@mui/material';
import { RequiredStepScreen } from '../components/RequiredStepScreen';
import { enrolment as defaultEnrolment, type Enrolment } from '../dataProvider/enrolment';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import type { SecondFactorEnrolled } from '../dataProvider/methods/secondFactors';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { TotpSetup } from './TotpSetup';
import { PasskeySetup } from './PasskeySetup';
import { RecoveryCodes } from './RecoveryCodes';
import { SECOND_FACTOR_MESSAGES } from './messages';

type Kind = 'totp' | 'passkey';

/**
 * The only screen of an account that must set up a second factor (the organisation's policy, or an administrator's
 * reset): the server answers nothing else until one is confirmed. An authenticator app or a passkey; then the
 * recovery codes, once; then the permissions are read again and the dashboard opens.
 */
const ForcedEnrolmentScreen = ({ enrolment = defaultEnrolment }: { enrolment?: Enrolment }) => {
  const translate = useTranslate();
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dataProvider = useAppDataProvider();
  const [kind, setKind] = useState<Kind>('totp');
  const [codes, setCodes] = useState<string[] | null>(null);
  // Why it is asked: the reset says so in its own words.
  const factors = useQuery({ queryKey: ['me', 'second-factors'], queryFn: () => dataProvider.getMySecondFactors() });
  const reset = factors.data?.required_reason === 'reset';

  const finish = async () => {
    // The router finishes the navigation on its own; nothing here waits for it.
    void navigate('/');
    enrolment.enrolled();
    // Every answer derived from the permissions (menus, access checks) was read while enrolment was required.
    await queryClient.invalidateQueries({ queryKey: ['auth'] });
  };

  const enrolled = (result: SecondFactorEnrolled) => {
    if (result.recovery_codes?.length) setCodes(result.recovery_codes);
    else void finish();
  };

  return (
    <RequiredStepScreen
      testId="forced-enrolment"
      maxWidth={520}
      title={translate(codes ? 'second_factor.recovery.title' : 'second_factor.forced.title')}
      signOutLabel={translate('second_factor.forced.sign_out')}
      onSignOut={() => void logout()}
    >
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => void finish()} />
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate(reset ? 'second_factor.forced.message_reset' : 'second_factor.forced.message')}
          </Typography>
          <Tabs value={kind} onChange={(_, v: Kind) => setKind(v)} sx={{ mb: 2 }}>
            <Tab value="totp" label={translate('second_factor.kinds.totp')} />
            <Tab value="passkey" label={translate('second_factor.kinds.passkey')} />
          </Tabs>
          {kind === 'totp' ? <TotpSetup onEnrolled={enrolled} /> : <PasskeySetup onEnrolled={enrolled} />}
        </>
      )}
    </RequiredStepScreen>
  );
};

export const ForcedEnrolment = (props: { enrolment?: Enrolment }) => (
  <ScreenMessages modules={SECOND_FACTOR_MESSAGES}>
    <ForcedEnrolmentScreen {...props} />
  </ScreenMessages>
);
