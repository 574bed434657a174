import { useRef, useState } from 'react';
import { useNotify, useTranslate, type Identifier } from 'react-admin';
import { Box, Button, Card, CardContent, CardHeader, CircularProgress, Stack, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import type { BrandedResource, ImageKind } from '../types';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { ACCEPTED_IMAGE_TYPES, checkImageFile } from '../lib/imageCheck';
import { readableProblem } from '../lib/problems';

const PREVIEW: Record<ImageKind, { width: number; height: number }> = {
  logo: { width: 240, height: 96 },
  avatar: { width: 96, height: 96 },
};

const ImageControl = (props: {
  resource: BrandedResource;
  recordId: Identifier;
  kind: ImageKind;
  url: string | null | undefined;
  enabled: boolean;
  /** No upload control at all: the caller may only look. */
  readOnly: boolean;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const input = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState(props.url ?? null);
  const [uploading, setUploading] = useState(false);
  const size = PREVIEW[props.kind];

  const onFile = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) {
      notify(problem === 'type' ? 'app.branding.invalid_type' : 'app.branding.too_large', { type: 'error' });
      return;
    }
    setUploading(true);
    try {
      const result = await dataProvider.uploadImage(props.resource, props.recordId, props.kind, file);
      setUrl(result.url);
      notify('app.branding.uploaded', {
        type: 'success',
        messageArgs: { kind: translate(`app.branding.${props.kind}`) },
      });
    } catch (e) {
      // One message naming the image and the reason (the server's detail, or the field problem in words).
      const reason = readableProblem(
        e,
        () => translate(`app.branding.${props.kind}`),
        translate('ra.notification.http_error'),
      );
      notify('app.branding.upload_failed', {
        type: 'error',
        messageArgs: { kind: translate(`app.branding.${props.kind}`), reason: translate(reason, { _: reason }) },
      });
    } finally {
      setUploading(false);
    }
  };

  return (
    <Stack spacing={1} alignItems="flex-start" data-testid={`branding-${props.kind}`}>
      <Typography variant="subtitle2">{translate(`app.branding.${props.kind}`)}</Typography>
      <Box
        sx={{
          ...size,
          borderRadius: 1,
          border: 1,
          borderColor: 'divider',
          bgcolor: 'action.hover',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
        }}
      >
        {url ? (
          <img
            src={url}
            alt={translate(`app.branding.${props.kind}`)}
            data-testid={`branding-${props.kind}-preview`}
            style={{ width: '100%', height: '100%', objectFit: props.kind === 'avatar' ? 'cover' : 'contain' }}
          />
        ) : (
          <Typography variant="caption" color="text.secondary">
            {translate('app.branding.none')}
          </Typography>
        )}
      </Box>
      {props.readOnly ? null : (
        <>
          <input
            ref={input}
            type="file"
            hidden
            accept={ACCEPTED_IMAGE_TYPES.join(',')}
            data-testid={`branding-${props.kind}-input`}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          <Button
            size="small"
            variant="outlined"
            startIcon={uploading ? <CircularProgress size={14} /> : <UploadIcon />}
            disabled={!props.enabled || uploading}
            onClick={() => input.current?.click()}
          >
            {translate('app.branding.upload')}
          </Button>
        </>
      )}
    </Stack>
  );
};

/**
 * Logo (rectangular) and avatar (square). Enabled only in edit mode; an upload is stored at once, apart from Save.
 * Read-only for a caller who may not edit the record.
 */
export const BrandingCard = ({
  canEdit = true,
  ...props
}: {
  resource: BrandedResource;
  recordId: Identifier;
  logoUrl?: string | null;
  avatarUrl?: string | null;
  enabled: boolean;
  /** Whether the caller may edit the record (and so switch to edit mode to upload). */
  canEdit?: boolean;
}) => {
  const translate = useTranslate();
  const hint = props.enabled ? 'app.branding.hint' : canEdit ? 'app.branding.hint_view' : 'app.branding.hint_read_only';
  return (
    <Card data-testid="branding-card">
      <CardHeader title={translate('app.branding.title')} subheader={translate(hint)} />
      <CardContent>
        <Stack direction="row" spacing={4} flexWrap="wrap" useFlexGap>
          <ImageControl {...props} readOnly={!canEdit} kind="logo" url={props.logoUrl} />
          <ImageControl {...props} readOnly={!canEdit} kind="avatar" url={props.avatarUrl} />
        </Stack>
      </CardContent>
    </Card>
  );
};
