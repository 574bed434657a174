import { useTranslate } from 'react-admin';
import { Controller, useFieldArray, useFormContext, useWatch, type Control } from 'react-hook-form';
import { Button, IconButton, MenuItem, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import type { ConfigEntry } from '../../types';
import { CONFIG_DATATYPES, configValueText, emptyConfigEntry } from '../../lib/configEntries';
import { CardTable, type CardColumn } from '../../components/card-table';

type ConfigForm = { config: ConfigEntry[] };

/** One entry being edited: its place in the form's array and react-hook-form's key for it. */
interface EditedEntry {
  key: string;
  index: number;
}

const label = (name: string) => `resources.business-units.config.${name}`;

const TextCell = (props: { control: Control<ConfigForm>; index: number; name: 'key' | 'label' | 'value' }) => {
  const translate = useTranslate();
  return (
    <Controller
      control={props.control}
      name={`config.${props.index}.${props.name}`}
      render={({ field: f }) => (
        <TextField
          {...f}
          value={f.value ?? ''}
          size="small"
          fullWidth
          placeholder={props.name === 'value' ? undefined : translate(label(props.name))}
          inputProps={{ 'aria-label': translate(label(props.name)) }}
        />
      )}
    />
  );
};

const TypeCell = ({ control, index }: { control: Control<ConfigForm>; index: number }) => {
  const translate = useTranslate();
  return (
    <Controller
      control={control}
      name={`config.${index}.datatype`}
      render={({ field: f }) => (
        <TextField
          {...f}
          select
          size="small"
          fullWidth
          value={f.value ?? 'string'}
          inputProps={{ 'aria-label': translate(label('type')) }}
        >
          {CONFIG_DATATYPES.map((t) => (
            <MenuItem key={t} value={t}>
              {t}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
};

/** Inline config editor in edit mode (Add Config Entry, delete per row with no confirmation); a read-only table in view mode. */
export const ConfigSection = ({ readOnly }: { readOnly: boolean }) => {
  const translate = useTranslate();
  const { control } = useFormContext<ConfigForm>();
  const { fields, append, remove } = useFieldArray({ control, name: 'config' });
  const values = useWatch({ control, name: 'config' }) ?? [];
  const empty = translate(label('empty'));

  if (readOnly) {
    const columns: CardColumn<ConfigEntry>[] = [
      { id: 'key', label: translate(label('key')), render: (e) => e.key },
      { id: 'label', label: translate(label('label')), render: (e) => e.label },
      { id: 'type', label: translate(label('type')), render: (e) => e.datatype },
      {
        id: 'value',
        label: translate(label('value')),
        render: (e) => configValueText(e.value),
        sx: { fontFamily: 'monospace' },
      },
    ];
    return (
      <CardTable<ConfigEntry>
        rows={values}
        columns={columns}
        rowKey={(_, i) => String(i)}
        empty={empty}
        testId="config-table"
      />
    );
  }

  const columns: CardColumn<EditedEntry>[] = [
    {
      id: 'key',
      label: translate(label('key')),
      render: (e) => <TextCell control={control} index={e.index} name="key" />,
    },
    {
      id: 'label',
      label: translate(label('label')),
      render: (e) => <TextCell control={control} index={e.index} name="label" />,
    },
    {
      id: 'type',
      label: translate(label('type')),
      render: (e) => <TypeCell control={control} index={e.index} />,
      sx: { minWidth: 110 },
    },
    {
      id: 'value',
      label: translate(label('value')),
      render: (e) => <TextCell control={control} index={e.index} name="value" />,
    },
  ];
  return (
    <>
      {fields.length > 0 && (
        <CardTable<EditedEntry>
          rows={fields.map((f, index) => ({ key: f.id, index }))}
          columns={columns}
          rowKey={(e) => e.key}
          empty={empty}
          testId="config-editor"
          rowTestId="config-row"
          actionsLabel={translate('ra.action.delete')}
          actions={(e) => (
            <Tooltip title={translate('ra.action.delete')}>
              <IconButton
                size="small"
                onClick={() => remove(e.index)}
                aria-label={translate('ra.action.delete')}
                data-testid="config-delete"
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        />
      )}
      <Button
        startIcon={<AddIcon />}
        onClick={() => append(emptyConfigEntry())}
        sx={{ mt: 1 }}
        data-testid="config-add"
      >
        {translate(label('add'))}
      </Button>
      <Typography variant="caption" color="text.secondary" component="p">
        {translate(label('hint'))}
      </Typography>
    </>
  );
};
