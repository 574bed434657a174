import { Form, SaveButton, Title, useCreate, useTranslate } from 'react-admin';
import { Box, Button, Card, CardContent, CardHeader, Stack } from '@mui/material';
import { Link, useNavigate } from 'react-router-dom';
import type { UserAccount } from '../../types';
import { RequireAccess } from '../../components/RequireAccess';
import { useRecordFeedback } from '../../components/useRecordFeedback';
import { InitialPasswordInput, UserIdentityFields, normalizeUser } from './UserFields';
import { accountFieldErrors } from './userProblems';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { USER_SCREEN_MESSAGES } from './screenMessages';

/**
 * Create mode: identity and an initial password. A refused password (400) is said under the password field, a taken
 * username or email (409) under that field; on success the new account's read view opens.
 */
const UserCreateForm = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const feedback = useRecordFeedback('users');
  const [create] = useCreate<UserAccount>();

  const submit = async (values: Record<string, unknown>) => {
    const data = normalizeUser(values);
    const name = typeof data.username === 'string' ? data.username : '';
    try {
      const created = await create('users', { data }, { returnPromise: true });
      // react-admin answers a call that ended the session with an empty record: that is no create.
      if (!created?.id) return undefined;
      feedback.created(created.username || name);
      // The router finishes the navigation on its own; nothing here waits for it.
      void navigate(`/users/${created.id}`);
    } catch (e) {
      const fields = accountFieldErrors(e, { hasPassword: true });
      if (fields) return fields;
      feedback.createFailed(name, e);
    }
    return undefined;
  };

  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('resources.users.create_title')} />
      <Card>
        <CardHeader title={translate('resources.users.create_title')} />
        <CardContent>
          <Form
            onSubmit={submit}
            noValidate
            defaultValues={{ username: '', email: '', firstname: '', middlename: '', lastname: '', password: '' }}
          >
            <Stack spacing={2}>
              <UserIdentityFields />
              <InitialPasswordInput />
              <Stack direction="row" spacing={1}>
                <SaveButton label="ra.action.create" data-testid="user-create-submit" />
                <Button component={Link} to="/users" data-testid="create-cancel">
                  {translate('ra.action.cancel')}
                </Button>
              </Stack>
            </Stack>
          </Form>
        </CardContent>
      </Card>
    </Box>
  );
};

/** /users/create — nothing of the form shows until `user.manage` is confirmed. */
export const UserCreate = () => (
  <RequireAccess action="create" resource="users">
    <ScreenMessages modules={USER_SCREEN_MESSAGES}>
      <UserCreateForm />
    </ScreenMessages>
  </RequireAccess>
);
