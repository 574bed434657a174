import { useTranslate } from 'react-admin';
import { Button, CircularProgress, Stack } from '@mui/material';
import type { SecondFactorEnrolled } from '../dataProvider/methods/secondFactors';

/** What a factor's setup screen is given: where it goes once the factor is confirmed, and a way out where there is one. */
export interface FactorSetupProps {
  onEnrolled: (result: SecondFactorEnrolled) => void;
  onCancel?: () => void;
}

/** The buttons under a factor's setup: Cancel where the setup can be left, and the submit that shows its progress. */
export const SetupActions = (props: { submitLabel: string; busy: boolean; ready: boolean; onCancel?: () => void }) => {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
      {props.onCancel && (
        <Button onClick={props.onCancel} disabled={props.busy}>
          {translate('ra.action.cancel')}
        </Button>
      )}
      <Button
        type="submit"
        variant="contained"
        disabled={props.busy || !props.ready}
        startIcon={props.busy ? <CircularProgress size={16} /> : undefined}
      >
        {translate(props.submitLabel)}
      </Button>
    </Stack>
  );
};
