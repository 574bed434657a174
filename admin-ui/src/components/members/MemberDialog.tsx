import { useState, type ReactNode } from 'react';
import { Box, CircularProgress, List, ListItemButton, ListItemText, TextField, type SxProps } from '@mui/material';
import type { MembershipRole } from '../../types';
import { displayName, type UserNameParts as NamedUser } from '../../lib/displayName';
import { DEFAULT_ROLE } from '../../lib/membership';
import { statusOf } from '../../lib/problems';
import { useBusyAction } from '../../lib/useBusyAction';
import { useNotice } from '../../lib/notice';
import { RoleSelect } from './RoleSelect';
import { FormDialog } from '../FormDialog';

/**
 * The frame of every membership dialog (add or edit, on a cluster or a unit): the title, the fields with the role
 * picker, Cancel and the one action, which waits while the call runs.
 */
export const MemberDialog = (props: {
  open: boolean;
  onClose: () => void;
  title: string;
  testId: string;
  wide?: boolean;
  role: MembershipRole;
  onRole: (role: MembershipRole) => void;
  /** The action's label key (Add, Save) and its test id. */
  submitLabel: string;
  submitTestId: string;
  canSubmit: boolean;
  busy: boolean;
  onSubmit: () => void;
  /** Fields before the role (the person), and after it (parent BU, membership status). */
  before?: ReactNode;
  after?: ReactNode;
}) => {
  return (
    <FormDialog
      open={props.open}
      onClose={props.onClose}
      title={props.title}
      testId={props.testId}
      maxWidth={props.wide ? 'sm' : 'xs'}
      // A refused membership call is said as a notice (useBusyAction), so the frame keeps none in place.
      call={{ error: '', busy: props.busy, submit: props.onSubmit }}
      ready={props.canSubmit}
      submitLabel={props.submitLabel}
      submitTestId={props.submitTestId}
    >
      {props.before}
      <RoleSelect value={props.role} onChange={props.onRole} />
      {props.after}
    </FormDialog>
  );
};

/** The search box over the people an add dialog offers. */
export const PersonSearch = (props: {
  label: string;
  helperText?: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
}) => (
  <TextField
    size="small"
    autoFocus
    label={props.label}
    helperText={props.helperText}
    value={props.value}
    onChange={(e) => props.onChange(e.target.value)}
    inputProps={props.testId ? { 'data-testid': props.testId } : undefined}
  />
);

const resultsBox: SxProps = { height: 250, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 };

/** The people to pick from, by name with username and email, under the search box; `more` shows a next page loading. */
export const PersonChoices = <P extends NamedUser & { username: string; email: string }>(props: {
  people: readonly P[];
  keyOf: (person: P) => string;
  selected: P | null;
  onSelect: (person: P) => void;
  optionTestId: string;
  more?: boolean;
}) => (
  <List dense disablePadding>
    {props.people.map((p) => (
      <ListItemButton
        key={props.keyOf(p)}
        selected={props.selected !== null && props.keyOf(props.selected) === props.keyOf(p)}
        onClick={() => props.onSelect(p)}
        data-testid={props.optionTestId}
      >
        <ListItemText primary={displayName(p)} secondary={`${p.username} · ${p.email}`} />
      </ListItemButton>
    ))}
    {props.more && (
      <Box sx={{ p: 1, textAlign: 'center' }}>
        <CircularProgress size={18} />
      </Box>
    )}
  </List>
);

/** The scrolling box the choices (or why there are none) stand in. */
export const ChoicesBox = (props: { children: ReactNode; testId?: string; onScroll?: (el: HTMLElement) => void }) => (
  <Box sx={resultsBox} data-testid={props.testId} onScroll={(e) => props.onScroll?.(e.currentTarget)}>
    {props.children}
  </Box>
);

/**
 * The state of an add dialog: the search, the person picked and the role, cleared on close and after an add, which
 * says so by name. `add` sends the membership; a failure stays in the dialog's notice.
 */
export function useAddMember<P extends NamedUser>(props: { onClose: () => void; onAdded: () => void }) {
  const notice = useNotice();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<P | null>(null);
  const [role, setRole] = useState<MembershipRole>(DEFAULT_ROLE);
  const [busy, run] = useBusyAction();
  const reset = () => {
    setSearch('');
    setSelected(null);
    setRole(DEFAULT_ROLE);
  };
  const close = () => {
    reset();
    props.onClose();
  };
  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = (add: (person: P, role: MembershipRole) => Promise<unknown>) => async () => {
    if (!selected) return;
    await run(async () => {
      await add(selected, role);
      notice('app.members.added', { type: 'success', args: { name: displayName(selected) } });
      reset();
      props.onAdded();
    });
  };
  return { search, setSearch, selected, setSelected, role, setRole, busy, close, submit, reset };
}

/**
 * The state of an edit dialog: the role, and the save, which names the version the list showed (If-Match); when
 * someone else changed the membership first, `onStale` is called instead of `onSaved`.
 */
export function useEditMember<M extends NamedUser & { role: MembershipRole }, R>(props: {
  member: M;
  onSaved: (saved: R) => void;
  onStale: () => void;
}) {
  const notice = useNotice();
  const [role, setRole] = useState<MembershipRole>(props.member.role);
  const [busy, run] = useBusyAction();
  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = (save: (role: MembershipRole) => Promise<R>) => async () => {
    await run(async () => {
      let saved: R;
      try {
        saved = await save(role);
      } catch (e) {
        if (statusOf(e) !== 412) throw e;
        props.onStale();
        return;
      }
      notice('app.members.updated', { type: 'success', args: { name: displayName(props.member) } });
      props.onSaved(saved);
    });
  };
  return { role, setRole, busy, submit };
}
