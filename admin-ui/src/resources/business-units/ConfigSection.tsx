import { useTranslate } from 'react-admin';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import {
  Button,
  IconButton,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import type { ConfigEntry } from '../../types';
import { CONFIG_DATATYPES, configValueText, emptyConfigEntry } from '../../lib/configEntries';

/** Inline config editor in edit mode (Add Config Entry, delete per row with no confirmation); a read-only table in view mode. */
export const ConfigSection = ({ readOnly }: { readOnly: boolean }) => {
  const translate = useTranslate();
  const { control } = useFormContext<{ config: ConfigEntry[] }>();
  const { fields, append, remove } = useFieldArray({ control, name: 'config' });
  const values = useWatch({ control, name: 'config' }) ?? [];

  const header = (
    <TableHead>
      <TableRow>
        <TableCell>{translate('resources.business-units.config.key')}</TableCell>
        <TableCell>{translate('resources.business-units.config.label')}</TableCell>
        <TableCell>{translate('resources.business-units.config.type')}</TableCell>
        <TableCell>{translate('resources.business-units.config.value')}</TableCell>
        {!readOnly && <TableCell />}
      </TableRow>
    </TableHead>
  );

  if (readOnly) {
    return values.length === 0 ? (
      <Typography color="text.secondary">{translate('resources.business-units.config.empty')}</Typography>
    ) : (
      <Table size="small" data-testid="config-table">
        {header}
        <TableBody>
          {values.map((e, i) => (
            <TableRow key={i}>
              <TableCell>{e.key}</TableCell>
              <TableCell>{e.label}</TableCell>
              <TableCell>{e.datatype}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{configValueText(e.value)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  }

  return (
    <>
      <Table size="small" data-testid="config-editor">
        {header}
        <TableBody>
          {fields.map((field, i) => (
            <TableRow key={field.id} data-testid="config-row">
              {(['key', 'label'] as const).map((name) => (
                <TableCell key={name}>
                  <Controller
                    control={control}
                    name={`config.${i}.${name}`}
                    render={({ field: f }) => (
                      <TextField
                        {...f}
                        value={f.value ?? ''}
                        size="small"
                        fullWidth
                        placeholder={translate(`resources.business-units.config.${name}`)}
                        inputProps={{ 'aria-label': translate(`resources.business-units.config.${name}`) }}
                      />
                    )}
                  />
                </TableCell>
              ))}
              <TableCell sx={{ minWidth: 120 }}>
                <Controller
                  control={control}
                  name={`config.${i}.datatype`}
                  render={({ field: f }) => (
                    <TextField {...f} select size="small" fullWidth value={f.value ?? 'string'}>
                      {CONFIG_DATATYPES.map((t) => (
                        <MenuItem key={t} value={t}>
                          {t}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </TableCell>
              <TableCell>
                <Controller
                  control={control}
                  name={`config.${i}.value`}
                  render={({ field: f }) => (
                    <TextField
                      {...f}
                      value={f.value ?? ''}
                      size="small"
                      fullWidth
                      inputProps={{ 'aria-label': translate('resources.business-units.config.value') }}
                    />
                  )}
                />
              </TableCell>
              <TableCell align="right">
                <Tooltip title={translate('ra.action.delete')}>
                  <IconButton
                    size="small"
                    onClick={() => remove(i)}
                    aria-label={translate('ra.action.delete')}
                    data-testid="config-delete"
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Button
        startIcon={<AddIcon />}
        onClick={() => append(emptyConfigEntry())}
        sx={{ mt: 1 }}
        data-testid="config-add"
      >
        {translate('resources.business-units.config.add')}
      </Button>
      <Typography variant="caption" color="text.secondary" component="p">
        {translate('resources.business-units.config.hint')}
      </Typography>
    </>
  );
};
