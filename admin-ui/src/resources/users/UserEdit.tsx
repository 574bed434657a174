import { useState, type ReactNode } from 'react';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { Box, Card, CardContent, CardHeader, Chip, Stack, Tab, Tabs, Typography } from '@mui/material';
import type { UserAccount } from '../../types';
import { RequireAccess } from '../../components/RequireAccess';
import { RecordLoader } from '../../components/RecordLoader';
import { ModeForm, type PageMode } from '../../components/ModeForm';
import { HistoryTab } from '../../components/history/HistoryTab';
import { StatusChip } from '../../components/StatusChip';
import { DateTimeText } from '../../components/DateTimeText';
import { UserIdentityFields, normalizeUser } from './UserFields';
import { UserActions } from './UserActions';
import { UserGrants } from './UserGrants';
import { UserSsoCard } from './UserSsoCard';
import { UserSessionsCard } from './UserSessionsCard';
import { UserSecondFactorsCard } from './UserSecondFactorsCard';
import { accountFieldErrors } from './userProblems';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { USER_SCREEN_MESSAGES } from './screenMessages';

type UserTab = 'details' | 'access' | 'history';

/**
 * The account's identity in view mode, and in edit mode for `user.manage`. The save sends the ETag of the last read
 * (the data provider keeps it), so a save over someone else's newer one is refused and their version shown.
 */
const IdentityCard = (props: {
  record: UserAccount;
  refetch: () => Promise<unknown>;
  initialMode: PageMode;
  canEdit: boolean;
}) => {
  const translate = useTranslate();
  const [mode, setMode] = useState<PageMode>(props.canEdit ? props.initialMode : 'view');
  const { record } = props;
  return (
    <Card data-testid="user-identity" data-mode={mode}>
      <CardHeader title={translate('resources.users.cards.identity')} subheader={record.username} />
      <CardContent>
        <ModeForm
          resource="users"
          record={record}
          mode={mode}
          onModeChange={setMode}
          canEdit={props.canEdit}
          refetch={props.refetch}
          transform={normalizeUser}
          nameOf={(data) => (typeof data.username === 'string' && data.username ? data.username : record.username)}
          fieldErrorsOf={(e) => accountFieldErrors(e, { hasPassword: false })}
        >
          <UserIdentityFields readOnly={mode === 'view'} />
        </ModeForm>
      </CardContent>
    </Card>
  );
};

const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box sx={{ minWidth: 160 }}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Box sx={{ mt: 0.5 }}>{children}</Box>
  </Box>
);

/** Status, flags and sign-in facts, with the account actions. */
const AccountCard = ({ record, refetch }: { record: UserAccount; refetch: () => Promise<unknown> }) => {
  const translate = useTranslate();
  const f = (field: string) => translate(`resources.users.fields.${field}`);
  return (
    <Card data-testid="user-account">
      <CardHeader
        title={translate('resources.users.cards.account')}
        action={<UserActions record={record} onChanged={refetch} />}
      />
      <CardContent>
        <Stack direction="row" spacing={3} useFlexGap flexWrap="wrap">
          <Fact label={f('is_active')}>
            <StatusChip active={record.is_active} />
          </Fact>
          <Fact label={f('last_sign_in_at')}>
            {record.last_sign_in_at ? (
              <DateTimeText value={record.last_sign_in_at} />
            ) : (
              translate('resources.users.never_signed_in')
            )}
          </Fact>
          <Fact label={f('grant_count')}>{record.grant_count}</Fact>
          <Fact label={translate('app.list.created')}>
            <DateTimeText value={record.created_at} />
          </Fact>
          <Fact label={translate('app.list.updated')}>
            <DateTimeText value={record.updated_at} />
          </Fact>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ mt: 2 }} useFlexGap flexWrap="wrap">
          {record.is_super_admin && (
            <Chip
              size="small"
              color="secondary"
              label={translate('resources.users.fields.is_super_admin')}
              data-testid="flag-super-admin"
            />
          )}
          {record.must_change_password && (
            <Chip
              size="small"
              color="info"
              variant="outlined"
              label={translate('resources.users.flags.must_change_password')}
            />
          )}
          {record.sign_in_delayed && (
            <Chip
              size="small"
              color="warning"
              label={translate('resources.users.flags.sign_in_delayed')}
              data-testid="flag-sign-in-delayed"
            />
          )}
        </Stack>
      </CardContent>
    </Card>
  );
};

const UserView = (props: { record: UserAccount; refetch: () => Promise<unknown>; initialMode: PageMode }) => {
  const translate = useTranslate();
  const [tab, setTab] = useState<UserTab>('details');
  const { canAccess: canEdit, isPending: checkingEdit } = useCanAccess({
    action: 'edit',
    resource: 'users',
    record: { id: props.record.id },
  });
  const { record } = props;
  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }} data-testid="user-view">
      <Title title={translate('resources.users.edit_title', { name: record.display_name || record.username })} />
      <Tabs value={tab} onChange={(_, v: UserTab) => setTab(v)}>
        <Tab value="details" label={translate('resources.users.tabs.details')} data-testid="tab-details" />
        <Tab value="access" label={translate('resources.users.tabs.access')} data-testid="tab-access" />
        <Tab value="history" label={translate('audit.history.title')} data-testid="tab-history" />
      </Tabs>
      {tab === 'details' && (
        <Stack spacing={2}>
          <AccountCard record={record} refetch={props.refetch} />
          <UserSsoCard user={record} />
          {/* Another person's sessions and second factors are a `user.manage` holder's matter. */}
          {canEdit && <UserSecondFactorsCard user={record} />}
          {canEdit && <UserSessionsCard user={record} />}
          {/* Once the grant is known, so that /users/:id/edit can open straight in edit mode. */}
          {!checkingEdit && (
            <IdentityCard record={record} refetch={props.refetch} initialMode={props.initialMode} canEdit={!!canEdit} />
          )}
        </Stack>
      )}
      {tab === 'access' && <UserGrants user={record} onChanged={props.refetch} />}
      {tab === 'history' && (
        <Card>
          <CardContent>
            <HistoryTab targetType="user" targetId={record.id} />
          </CardContent>
        </Card>
      )}
    </Stack>
  );
};

/** One account; `/users/:id` needs `user.read`, `/users/:id/edit` needs `user.manage` and opens in edit mode. */
const UserPage = ({ action }: { action: 'show' | 'edit' }) => {
  const { id = '' } = useParams();
  return (
    <RequireAccess action={action} resource="users" record={{ id }}>
      <ScreenMessages modules={USER_SCREEN_MESSAGES}>
        <RecordLoader<UserAccount> resource="users" id={id}>
          {(record, refetch) => (
            <UserView record={record} refetch={refetch} initialMode={action === 'edit' ? 'edit' : 'view'} />
          )}
        </RecordLoader>
      </ScreenMessages>
    </RequireAccess>
  );
};

/** /users/:id — the read view. */
export const UserShow = () => <UserPage action="show" />;

/** /users/:id/edit — guarded by `user.manage`. */
export const UserEdit = () => <UserPage action="edit" />;
