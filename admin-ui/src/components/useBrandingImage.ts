import { useState } from 'react';
import { useTranslate, type Identifier } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import type { BrandedResource, ImageKind } from '../types';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { checkImageFile } from '../lib/imageCheck';
import { readableProblem } from '../lib/problems';
import { useNotice } from '../lib/notice';

interface Props {
  resource: BrandedResource;
  recordId: Identifier;
  kind: ImageKind;
  /** The image as the record read shows it. */
  url: string | null | undefined;
  /** The record as read: its version goes out as If-Match on a removal. */
  record?: unknown;
}

/**
 * One image of a record: upload and removal, stored at once. The card shows what it stored until the record is read
 * again; the cached lists and the cached record are marked stale, so the next visit reads the image as stored (the
 * record page itself is not refetched here, which would reset a form being edited).
 */
export function useBrandingImage(props: Props) {
  const translate = useTranslate();
  const notice = useNotice();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  // What this card stored since the record was last read; a new read (a new signed URL) replaces it.
  const [stored, setStored] = useState<{ url: string | null; over: string | null | undefined } | null>(null);
  const url = stored && stored.over === props.url ? stored.url : (props.url ?? null);
  const kindName = translate(`app.branding.${props.kind}`);

  const refreshCaches = () =>
    queryClient.invalidateQueries({ queryKey: [props.resource], refetchType: 'none' }).then(() =>
      // Lists on screen (a cluster's business units card) show thumbnails: those refetch now.
      queryClient.invalidateQueries({ queryKey: [props.resource, 'getList'] }),
    );

  const failed = (key: 'upload_failed' | 'remove_failed', e: unknown) => {
    const reason = readableProblem(e, () => kindName, translate('ra.notification.http_error'));
    notice(`app.branding.${key}`, {
      type: 'error',
      args: { kind: kindName, reason: translate(reason, { _: reason }) },
    });
  };

  const run = async (write: () => Promise<string | null>, done: string, failure: 'upload_failed' | 'remove_failed') => {
    setBusy(true);
    try {
      const next = await write();
      setStored({ url: next, over: props.url });
      notice(done, { type: 'success', args: { kind: kindName } });
      await refreshCaches();
    } catch (e) {
      failed(failure, e);
    } finally {
      setBusy(false);
    }
  };

  return {
    url,
    busy,
    upload: (file: File) => {
      const problem = checkImageFile(file);
      if (problem) {
        notice(problem === 'type' ? 'app.branding.invalid_type' : 'app.branding.too_large', { type: 'error' });
        return Promise.resolve();
      }
      return run(
        async () => (await dataProvider.uploadImage(props.resource, props.recordId, props.kind, file)).url,
        'app.branding.uploaded',
        'upload_failed',
      );
    },
    remove: () =>
      run(
        async () => {
          await dataProvider.removeImage(props.resource, props.recordId, props.kind, props.record);
          return null;
        },
        'app.branding.removed',
        'remove_failed',
      ),
  };
}
