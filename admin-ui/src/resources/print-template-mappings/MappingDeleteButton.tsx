import { useState } from 'react';
import { Confirm, useDelete, useRecordContext, useRedirect, useRefresh, useTranslate } from 'react-admin';
import { Button } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { useRecordFeedback } from '../../components/useRecordFeedback';
import { mappingTitle } from './representation';
import type { PrintTemplateMapping } from '../../types';

/** Delete after a confirmation that names the mapping (soft delete on the server); the outcome names it too. */
export const MappingDeleteButton = ({ redirect }: { redirect?: 'list' | false }) => {
  const record = useRecordContext<PrintTemplateMapping>();
  const translate = useTranslate();
  const feedback = useRecordFeedback('print-template-mappings');
  const goTo = useRedirect();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [deleteOne, { isPending }] = useDelete<PrintTemplateMapping>();
  if (!record) return null;
  const name = mappingTitle(record);

  // The outcome arrives through onSuccess and onError below.
  const confirm = () =>
    void deleteOne(
      'print-template-mappings',
      { id: record.id, previousData: record },
      {
        onSuccess: (data) => {
          setOpen(false);
          // react-admin answers a call that ended the session with an empty record: that is no delete.
          if (data?.id === undefined) return;
          feedback.deleted(name);
          if (redirect) goTo(redirect, 'print-template-mappings');
          else refresh();
        },
        onError: (error) => {
          setOpen(false);
          feedback.deleteFailed(name, error);
        },
      },
    );

  return (
    <>
      <Button
        color="error"
        size="small"
        // The form's toolbar is grey: a darker red (light theme) or a lighter one (dark) keeps the label readable (WCAG AA).
        sx={(theme) => ({
          color: theme.palette.mode === 'light' ? theme.palette.error.dark : theme.palette.error.light,
        })}
        startIcon={<DeleteIcon />}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
      >
        {translate('ra.action.delete')}
      </Button>
      <Confirm
        isOpen={open}
        loading={isPending}
        title="resources.print-template-mappings.delete.title"
        content="resources.print-template-mappings.delete.content"
        translateOptions={{ recordRepresentation: name }}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
};
