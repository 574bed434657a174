import { TextInput, email, maxLength, required, useTranslate } from 'react-admin';
import { Grid } from '@mui/material';

const USERNAME = /^[A-Za-z0-9._@-]+$/;

/**
 * A username uses letters, digits and `. _ @ -` only. Checked here rather than with react-admin's `regex`, whose
 * type goes through lodash's type declarations, which the console does not install.
 */
const usernameCharacters = (value: unknown) =>
  typeof value === 'string' && value !== '' && !USERNAME.test(value) ? 'resources.users.username_rule' : undefined;

/** The account's identity; `readOnly` in view mode. */
export const UserIdentityFields = ({ readOnly = false }: { readOnly?: boolean }) => (
  <Grid container spacing={2}>
    <Grid size={{ xs: 12, md: 6 }}>
      <TextInput
        source="username"
        validate={[required(), maxLength(255), usernameCharacters]}
        readOnly={readOnly}
        fullWidth
      />
    </Grid>
    <Grid size={{ xs: 12, md: 6 }}>
      <TextInput
        source="email"
        type="email"
        validate={[required(), email(), maxLength(254)]}
        readOnly={readOnly}
        fullWidth
      />
    </Grid>
    <Grid size={{ xs: 12, md: 4 }}>
      <TextInput source="firstname" validate={maxLength(255)} readOnly={readOnly} fullWidth />
    </Grid>
    <Grid size={{ xs: 12, md: 4 }}>
      <TextInput source="middlename" validate={maxLength(255)} readOnly={readOnly} fullWidth />
    </Grid>
    <Grid size={{ xs: 12, md: 4 }}>
      <TextInput source="lastname" validate={maxLength(255)} readOnly={readOnly} fullWidth />
    </Grid>
  </Grid>
);

/** The initial password, with the reminder that the user replaces it at the first sign-in. */
export const InitialPasswordInput = () => {
  const translate = useTranslate();
  return (
    <TextInput
      source="password"
      type="password"
      autoComplete="new-password"
      validate={[required(), maxLength(256)]}
      helperText={translate('resources.users.password_hint')}
      fullWidth
    />
  );
};

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** Empty names mean "none" on the wire; username and email are sent trimmed. */
export function normalizeUser(values: Record<string, unknown>): Record<string, unknown> {
  return {
    ...values,
    username: typeof values.username === 'string' ? values.username.trim() : values.username,
    email: typeof values.email === 'string' ? values.email.trim() : values.email,
    firstname: blankToNull(values.firstname),
    middlename: blankToNull(values.middlename),
    lastname: blankToNull(values.lastname),
  };
}
