import { useTranslate } from 'react-admin';
import { readableProblem } from '../lib/problems';
import { useNotice } from '../lib/notice';

type Outcome = 'saved' | 'created' | 'deleted' | 'restored';
type Failure = 'save_failed' | 'create_failed' | 'delete_failed' | 'restore_failed';

/**
 * The notifications of a record's writes, each naming the record ("Cluster CL-A saved"). A success is only ever
 * reported by the caller after the server answered 2xx; a failure gives the reason in words, field by field for a
 * validation problem.
 */
export function useRecordFeedback(resource: string) {
  const translate = useTranslate();
  const notice = useNotice();
  const resourceName = translate(`resources.${resource}.name`, { smart_count: 1 });
  const labelOf = (field: string) => translate(`resources.${resource}.fields.${field}`, { _: field });

  const success = (outcome: Outcome, name: string) =>
    notice(`app.feedback.${outcome}`, { type: 'success', args: { resource: resourceName, name } });

  const failure = (failure: Failure, name: string, error: unknown) => {
    // Messages of our own (a session ended by the user, a blocked pre-check) are keys; server details are text. The
    // reason names fields by their labels on this resource, which the generic reason of `useNotice` cannot.
    const raw = readableProblem(error, labelOf, translate('ra.notification.http_error'));
    const reason = translate(raw, { _: raw });
    notice(`app.feedback.${failure}`, { type: 'error', args: { resource: resourceName, name, reason } });
  };

  return {
    saved: (name: string) => success('saved', name),
    created: (name: string) => success('created', name),
    deleted: (name: string) => success('deleted', name),
    restored: (name: string) => success('restored', name),
    saveFailed: (name: string, error: unknown) => failure('save_failed', name, error),
    createFailed: (name: string, error: unknown) => failure('create_failed', name, error),
    deleteFailed: (name: string, error: unknown) => failure('delete_failed', name, error),
    restoreFailed: (name: string, error: unknown) => failure('restore_failed', name, error),
  };
}

/** How a record is named in messages: its code when it has one, else its name, else its id. */
export function recordLabel(record: { code?: unknown; name?: unknown; id?: unknown } | null | undefined): string {
  for (const v of [record?.code, record?.name, record?.id]) if (typeof v === 'string' && v.trim()) return v.trim();
  return '';
}
