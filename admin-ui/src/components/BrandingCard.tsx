import { useRef, useState } from 'react';
import { Confirm, useTranslate, type Identifier } from 'react-admin';
import { Box, Button, Card, CardContent, CardHeader, CircularProgress, Stack, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import type { BrandedResource, ImageKind } from '../types';
import { ACCEPTED_IMAGE_TYPES } from '../lib/imageCheck';
import { useBrandingImage } from './useBrandingImage';

/** A cluster or business unit as read: the images it shows. */
export interface BrandedRecord {
  id: Identifier;
  logo?: { url: string } | null;
  avatar?: { url: string } | null;
}

const PREVIEW: Record<ImageKind, { width: number; height: number }> = {
  logo: { width: 240, height: 96 },
  avatar: { width: 96, height: 96 },
};

const ImageControl = (props: {
  resource: BrandedResource;
  recordId: Identifier;
  record?: unknown;
  kind: ImageKind;
  url: string | null | undefined;
  /** No upload or removal at all: the caller may only look. */
  readOnly: boolean;
}) => {
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  const [confirming, setConfirming] = useState(false);
  const image = useBrandingImage(props);
  const size = PREVIEW[props.kind];
  const kindName = translate(`app.branding.${props.kind}`);

  const onFile = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (file) void image.upload(file);
  };

  return (
    <Stack spacing={1} alignItems="flex-start" data-testid={`branding-${props.kind}`}>
      <Typography variant="subtitle2">{kindName}</Typography>
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
        {image.url ? (
          <img
            src={image.url}
            alt={kindName}
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
        <Stack direction="row" spacing={1}>
          <input
            ref={input}
            type="file"
            hidden
            accept={ACCEPTED_IMAGE_TYPES.join(',')}
            data-testid={`branding-${props.kind}-input`}
            onChange={(e) => onFile(e.target.files?.[0])}
          />
          <Button
            size="small"
            variant="outlined"
            startIcon={image.busy ? <CircularProgress size={14} /> : <UploadIcon />}
            disabled={image.busy}
            onClick={() => input.current?.click()}
          >
            {translate('app.branding.upload')}
          </Button>
          {image.url ? (
            <Button
              size="small"
              color="error"
              startIcon={<DeleteOutlineIcon />}
              disabled={image.busy}
              onClick={() => setConfirming(true)}
            >
              {translate('app.branding.remove')}
            </Button>
          ) : null}
          <Confirm
            isOpen={confirming}
            title="app.branding.remove_title"
            content="app.branding.remove_message"
            translateOptions={{ kind: kindName.toLowerCase() }}
            confirm="app.branding.remove"
            confirmColor="warning"
            onConfirm={() => {
              setConfirming(false);
              void image.remove();
            }}
            onClose={() => setConfirming(false)}
          />
        </Stack>
      )}
    </Stack>
  );
};

/**
 * Logo (rectangular) and avatar (square). An upload or removal is stored at once, apart from Save, so it needs no edit
 * mode. Read-only for a caller who may not edit the record.
 */
export const BrandingCard = ({
  canEdit = true,
  resource,
  record,
}: {
  resource: BrandedResource;
  /** The record as read: its images, and its version, which goes out with a removal. */
  record: BrandedRecord;
  /** Whether the caller may edit the record, and so change its images. */
  canEdit?: boolean;
}) => {
  const translate = useTranslate();
  return (
    <Card data-testid="branding-card">
      <CardHeader
        title={translate('app.branding.title')}
        subheader={translate(canEdit ? 'app.branding.hint' : 'app.branding.hint_read_only')}
      />
      <CardContent>
        <Stack direction="row" spacing={4} flexWrap="wrap" useFlexGap>
          {(['logo', 'avatar'] as const).map((kind) => (
            <ImageControl
              key={kind}
              resource={resource}
              recordId={record.id}
              record={record}
              readOnly={!canEdit}
              kind={kind}
              url={record[kind]?.url}
            />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
};
