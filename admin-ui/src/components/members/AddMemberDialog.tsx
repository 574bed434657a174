import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { LinearProgress } from '@mui/material';
import type { MembershipRole } from '../../types';
import type { UserNameParts } from '../../lib/displayName';
import { ErrorState } from '../ErrorState';
import { ChoicesBox, MemberDialog, PersonChoices, PersonSearch, type useAddMember } from './MemberDialog';

type Person = UserNameParts & { username: string; email: string };

/** Where an add dialog's people come from: the load's state (a TanStack Query result fits). */
export interface PeopleSource {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * Adding a member, to a cluster or a unit: a search over the people the resource may take, the one picked, the role,
 * and what else the membership holds (`after`). The two differ in where the people come from (`source`, `people`)
 * and in what the dialog says when nobody is left to pick (`none`).
 */
export const AddMemberDialog = <P extends Person>(props: {
  open: boolean;
  add: ReturnType<typeof useAddMember<P>>;
  testId: string;
  submitTestId: string;
  search: { label: string; helperText?: string; testId?: string };
  source: PeopleSource;
  people: readonly P[];
  keyOf: (person: P) => string;
  optionTestId: string;
  /** Why nobody can be picked, when nobody can; shown in the choices' place. */
  none: ReactNode;
  choicesTestId?: string;
  /** The choices were scrolled: a source that pages loads the next one near the end. */
  onScroll?: (el: HTMLElement) => void;
  /** A next page is loading. */
  more?: boolean;
  after?: ReactNode;
  send: (person: P, role: MembershipRole) => Promise<unknown>;
}) => {
  const translate = useTranslate();
  const { add, source } = props;
  return (
    <MemberDialog
      open={props.open}
      onClose={add.close}
      title={translate('app.members.add_title')}
      testId={props.testId}
      wide
      role={add.role}
      onRole={add.setRole}
      submitLabel="ra.action.add"
      submitTestId={props.submitTestId}
      canSubmit={add.selected !== null}
      busy={add.busy}
      onSubmit={() => void add.submit(props.send)()}
      before={
        <>
          <PersonSearch {...props.search} value={add.search} onChange={add.setSearch} />
          <ChoicesBox testId={props.choicesTestId} onScroll={props.onScroll}>
            {source.isPending ? (
              <LinearProgress />
            ) : source.isError ? (
              <ErrorState error={source.error} onRetry={() => void source.refetch()} />
            ) : props.people.length === 0 ? (
              props.none
            ) : (
              <PersonChoices
                people={props.people}
                keyOf={props.keyOf}
                selected={add.selected}
                onSelect={add.setSelected}
                optionTestId={props.optionTestId}
                more={props.more}
              />
            )}
          </ChoicesBox>
        </>
      }
      after={props.after}
    />
  );
};
