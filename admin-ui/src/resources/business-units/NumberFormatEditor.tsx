import { useState } from 'react';
import { ValidationError, useInput, useTranslate, type Validator } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { Box, FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { formatObjectOf, isValidJson, previewNumberFormat, PREVIEW_NUMBER } from '../../lib/jsonFormat';

type FormatField = 'perpage_format' | 'amount_format' | 'quantity_format' | 'recipe_format';

const LOCALES = ['th-TH', 'en-US', 'en-GB', 'de-DE', 'fr-FR', 'ja-JP', 'zh-CN'];
const DIGIT_OPTIONS = [
  { key: 'minimumIntegerDigits', min: 1, max: 21 },
  { key: 'minimumFractionDigits', min: 0, max: 100 },
  { key: 'maximumFractionDigits', min: 0, max: 100 },
] as const;

const pretty = (value: Record<string, unknown>) => JSON.stringify(value, null, 2);

/**
 * One number-format field of a business unit. The stored JSON is edited through its parts (locale, digits,
 * grouping; rows per page for the page size) with a live preview; raw JSON is an advanced toggle. Text that is not
 * JSON blocks the save, unless it is the value as stored (an old record keeps what it has until someone edits it).
 */
export const NumberFormatEditor = ({ source, readOnly }: { source: FormatField; readOnly: boolean }) => {
  const translate = useTranslate();
  const { formState } = useFormContext<Record<string, unknown>>();
  const stored = formState.defaultValues?.[source];
  const validate: Validator = (value: unknown) => {
    if (typeof value !== 'string' || value.trim() === '' || value === stored) return undefined;
    if (!isValidJson(value)) return 'resources.business-units.json_invalid';
    const object = formatObjectOf(value);
    if (object && source !== 'perpage_format' && previewNumberFormat(object) === null)
      return 'resources.business-units.format_invalid';
    return undefined;
  };
  const { field, fieldState } = useInput({ source, validate });
  const text = typeof field.value === 'string' ? field.value : '';
  const object = formatObjectOf(text);
  const [raw, setRaw] = useState(false);
  const showRaw = raw || object === null;
  const label = translate(`resources.business-units.fields.${source}`);
  const set = (key: string, value: unknown) => {
    const next = { ...(object ?? {}) };
    if (value === undefined || value === '') delete next[key];
    else next[key] = value;
    field.onChange(pretty(next));
  };
  const error = fieldState.error?.message;

  return (
    <Box data-testid={`number-format-${source}`}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
        <Typography variant="subtitle2" component="h3">
          {label}
        </Typography>
        {object !== null ? (
          <FormControlLabel
            control={<Switch size="small" checked={raw} onChange={(e) => setRaw(e.target.checked)} />}
            label={translate('resources.business-units.number_format.raw_toggle')}
          />
        ) : null}
      </Stack>
      {showRaw ? (
        <TextField
          value={text}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
          inputRef={field.ref}
          name={field.name}
          label={label}
          multiline
          minRows={3}
          fullWidth
          size="small"
          error={!!error}
          helperText={
            error ? (
              <ValidationError error={error} />
            ) : (
              translate(
                object === null && text.trim() !== ''
                  ? 'resources.business-units.json_stored_text'
                  : 'resources.business-units.json_hint',
              )
            )
          }
          slotProps={{ input: { readOnly }, htmlInput: { 'aria-label': label, style: { fontFamily: 'monospace' } } }}
        />
      ) : source === 'perpage_format' ? (
        <TextField
          type="number"
          size="small"
          label={translate('resources.business-units.number_format.rows_per_page')}
          value={typeof object?.default === 'number' ? object.default : ''}
          onChange={(e) => set('default', e.target.value === '' ? undefined : Number(e.target.value))}
          slotProps={{ input: { readOnly }, htmlInput: { min: 1, max: 100, step: 1 } }}
          sx={{ maxWidth: 200 }}
        />
      ) : (
        <Stack spacing={1.5}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <TextField
              select
              size="small"
              label={translate('resources.business-units.number_format.locale')}
              value={typeof object?.locales === 'string' ? object.locales : ''}
              onChange={(e) => set('locales', e.target.value)}
              slotProps={{ input: { readOnly } }}
              sx={{ minWidth: 140 }}
            >
              {[...new Set([...(typeof object?.locales === 'string' ? [object.locales] : []), ...LOCALES])].map((l) => (
                <MenuItem key={l} value={l}>
                  {l}
                </MenuItem>
              ))}
            </TextField>
            {DIGIT_OPTIONS.map((o) => (
              <TextField
                key={o.key}
                type="number"
                size="small"
                label={translate(`resources.business-units.number_format.${o.key}`)}
                value={typeof object?.[o.key] === 'number' ? object[o.key] : ''}
                onChange={(e) => set(o.key, e.target.value === '' ? undefined : Number(e.target.value))}
                slotProps={{ input: { readOnly }, htmlInput: { min: o.min, max: o.max, step: 1 } }}
                sx={{ maxWidth: 170 }}
              />
            ))}
          </Stack>
          <FormControlLabel
            control={
              <Switch
                size="small"
                checked={object?.useGrouping !== false}
                disabled={readOnly}
                onChange={(e) => set('useGrouping', e.target.checked ? undefined : false)}
              />
            }
            label={translate('resources.business-units.number_format.use_grouping')}
          />
          {error ? (
            <Typography variant="caption" color="error">
              <ValidationError error={error} />
            </Typography>
          ) : null}
        </Stack>
      )}
      <FormatPreview source={source} object={object} />
    </Box>
  );
};

/** What the format does to a number, as the user will see it. */
const FormatPreview = ({ source, object }: { source: FormatField; object: Record<string, unknown> | null }) => {
  const translate = useTranslate();
  if (!object) return null;
  const text =
    source === 'perpage_format'
      ? typeof object.default === 'number'
        ? translate('resources.business-units.number_format.rows_preview', { smart_count: object.default })
        : null
      : previewNumberFormat(object);
  return (
    <Typography variant="body2" sx={{ mt: 1 }} data-testid={`number-format-preview-${source}`}>
      {translate('resources.business-units.number_format.preview')}{' '}
      {text === null ? (
        <Box component="span" sx={{ color: 'error.main' }}>
          {translate('resources.business-units.format_invalid')}
        </Box>
      ) : (
        <Box component="strong" sx={{ fontFamily: 'monospace' }} title={String(PREVIEW_NUMBER)}>
          {text}
        </Box>
      )}
    </Typography>
  );
};
