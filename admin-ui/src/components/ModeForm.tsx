import { useRef, useState, type ReactNode } from 'react';
import { Form, useTranslate, useUpdate, type RaRecord } from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { Button, CircularProgress, Stack } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import SaveIcon from '@mui/icons-material/Save';
import CloseIcon from '@mui/icons-material/Close';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';
import { StaleRecordDialog } from './StaleRecordDialog';
import { recordLabel, useRecordFeedback } from './useRecordFeedback';
import { SessionEndedError } from '../dataProvider/reauth';
import { statusOf } from '../lib/problems';

export type PageMode = 'view' | 'edit';

interface ModeFormProps {
  resource: 'clusters' | 'business-units' | 'users';
  record: RaRecord;
  mode: PageMode;
  onModeChange: (mode: PageMode) => void;
  /** Whether the caller may switch to edit mode (the update grant on the record's cluster). */
  canEdit: boolean;
  /** Re-reads the record after a save. */
  refetch: () => Promise<unknown>;
  transform?: (values: Record<string, unknown>) => Record<string, unknown>;
  /** The record's name in the save messages; by default its code, else its name. */
  nameOf?: (data: Record<string, unknown>) => string;
  /** The field errors a refused save shows; by default the problem's `errors`. */
  fieldErrorsOf?: (error: unknown) => Record<string, string> | undefined;
  children: ReactNode;
}

/** The lists that show a record of each resource, besides its own: a cluster's name on its units, a unit's count. */
const SHOWN_IN: Record<ModeFormProps['resource'], string[]> = {
  clusters: ['clusters', 'business-units'],
  'business-units': ['business-units', 'clusters'],
  users: ['users'],
};

const problemFieldErrors = (e: unknown) => (e as { body?: { errors?: Record<string, string> } }).body?.errors;

/**
 * View (initial) and edit modes over one record. Edit remembers the values; Cancel restores them
 * with no call; Save Changes sends the PUT, re-fetches and returns to view. An expired session is
 * answered in place by the sign-in dialog and the PUT is retried, so the form and its values stay.
 */
export const ModeForm = (props: ModeFormProps) => {
  const feedback = useRecordFeedback(props.resource);
  const [update] = useUpdate();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [stale, setStale] = useState(false);
  // The version Edit opened: its ETag goes out as If-Match, even if a refetch brought a newer one meanwhile.
  const opened = useRef<RaRecord>(props.record);
  const onModeChange = (mode: PageMode) => {
    if (mode === 'edit') opened.current = props.record;
    props.onModeChange(mode);
  };

  const save = async (values: Record<string, unknown>) => {
    setSaving(true);
    const data = props.transform ? props.transform(values) : values;
    const name = props.nameOf?.(data) || recordLabel(data) || recordLabel(props.record);
    try {
      const saved: unknown = await update(
        props.resource,
        { id: props.record.id, data, previousData: opened.current },
        { returnPromise: true },
      );
      // react-admin answers a call that ended the session with an empty record: that is not a save.
      if (!saved || typeof saved !== 'object' || !('id' in saved)) throw new SessionEndedError();
      await props.refetch();
      props.onModeChange('view');
      feedback.saved(name);
      // Every cached list that shows the record reads it again (the record page itself was just refetched).
      for (const resource of SHOWN_IN[props.resource])
        void queryClient.invalidateQueries({ queryKey: [resource, 'getList'] });
    } catch (e) {
      if (statusOf(e) === 412) {
        // Someone saved in between: show their version (and its new ETag) instead of overwriting it.
        await props.refetch();
        props.onModeChange('view');
        setStale(true);
        return undefined;
      }
      feedback.saveFailed(name, e);
      return (props.fieldErrorsOf ?? problemFieldErrors)(e);
    } finally {
      setSaving(false);
    }
    return undefined;
  };

  return (
    <Form record={props.record} onSubmit={save} noValidate>
      <ModeControls {...props} onModeChange={onModeChange} saving={saving} />
      {props.children}
      <StaleRecordDialog open={stale} onClose={() => setStale(false)} />
    </Form>
  );
};

const ModeControls = (props: ModeFormProps & { saving: boolean }) => {
  const translate = useTranslate();
  const { getValues, reset } = useFormContext();
  const { isDirty } = useFormState();
  const remembered = useRef<Record<string, unknown> | null>(null);

  return (
    <>
      <UnsavedChangesGuard when={props.mode === 'edit' && isDirty} />
      <Stack direction="row" spacing={1} justifyContent="flex-end" sx={{ mb: 2 }}>
        {props.mode === 'view' ? (
          props.canEdit && (
            <Button
              variant="contained"
              startIcon={<EditIcon />}
              data-testid="mode-edit"
              onClick={() => {
                remembered.current = structuredClone(getValues());
                props.onModeChange('edit');
              }}
            >
              {translate('ra.action.edit')}
            </Button>
          )
        ) : (
          <>
            <Button
              startIcon={<CloseIcon />}
              data-testid="mode-cancel"
              disabled={props.saving}
              onClick={() => {
                // Opened straight in edit mode, nothing was remembered: the form's own values are the record's.
                reset(remembered.current ?? undefined);
                props.onModeChange('view');
              }}
            >
              {translate('ra.action.cancel')}
            </Button>
            <Button
              type="submit"
              variant="contained"
              data-testid="mode-save"
              disabled={props.saving}
              startIcon={props.saving ? <CircularProgress size={16} /> : <SaveIcon />}
            >
              {translate('app.common.save_changes')}
            </Button>
          </>
        )}
      </Stack>
    </>
  );
};
