import {
  BooleanInput,
  Confirm,
  NumberInput,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  maxLength,
  required,
  useRecordContext,
  useTranslate,
  type Validator,
} from 'react-admin';
import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import type { PrintTemplateMapping } from '../../types';
import { LiveUnknownCodes } from './LiveUnknownCodes';
import type { ReactElement } from 'react';
import { BuCodesInput } from './BuCodesInput';
import { DocumentTypeInput } from './DocumentTypeInput';
import { TemplateSelectInput } from './TemplateSelectInput';
import { useDefaultTakeover } from './useDefaultTakeover';

const DISPLAY_LABEL_MAX = 255;
const INT32 = 2_147_483_647;

const integer: Validator = (v: unknown) =>
  v === null || v === undefined || v === '' || (Number.isInteger(v) && Math.abs(v as number) <= INT32)
    ? undefined
    : 'resources.print-template-mappings.validation.integer';

const labelValidate = [maxLength(DISPLAY_LABEL_MAX)];
const orderValidate = [required(), integer];
/** Keeps a cleared label as '' (an update with null would leave the stored label unchanged). */
const keepBlank = (v: string) => v ?? '';

const MAPPING_DEFAULTS = {
  is_default: true,
  display_label: '',
  display_order: 0,
  allow_business_unit: [],
  deny_business_unit: [],
  is_active: true,
};

/** Save and Cancel (back to the list, nothing sent). */
const CreateToolbar = () => {
  const translate = useTranslate();
  return (
    <Toolbar sx={{ gap: 1 }}>
      <SaveButton />
      <Button component={Link} to="/print-template-mappings" data-testid="form-cancel">
        {translate('ra.action.cancel')}
      </Button>
    </Toolbar>
  );
};

/** Create and edit share the fields of the contract's mapping (read-only joined fields are never sent). */
export const PrintTemplateMappingForm = ({ toolbar }: { toolbar?: ReactElement }) => {
  const translate = useTranslate();
  const record = useRecordContext<PrintTemplateMapping>();
  const takeover = useDefaultTakeover(record);
  return (
    <SimpleForm
      defaultValues={MAPPING_DEFAULTS}
      sx={{ maxWidth: 720 }}
      toolbar={toolbar ?? <CreateToolbar />}
      onSubmit={takeover.onSubmit}
    >
      <Confirm
        isOpen={takeover.loser !== null}
        title="resources.print-template-mappings.default_takeover.title"
        content="resources.print-template-mappings.default_takeover.message"
        translateOptions={{ name: takeover.loser ?? '' }}
        confirm="resources.print-template-mappings.default_takeover.confirm"
        onConfirm={() => void takeover.confirm()}
        onClose={takeover.cancel}
      />
      <DocumentTypeInput />
      <TemplateSelectInput />
      <BooleanInput
        source="is_default"
        label="resources.print-template-mappings.fields.is_default"
        helperText="resources.print-template-mappings.help.is_default"
      />
      <TextInput
        source="display_label"
        label="resources.print-template-mappings.fields.display_label"
        validate={labelValidate}
        parse={keepBlank}
        helperText="resources.print-template-mappings.help.display_label"
        fullWidth
      />
      <NumberInput
        source="display_order"
        label="resources.print-template-mappings.fields.display_order"
        validate={orderValidate}
        step={1}
        helperText="resources.print-template-mappings.help.display_order"
      />
      <Box width="100%">
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          {translate('resources.print-template-mappings.sections.business_units')}
        </Typography>
        <BuCodesInput
          source="allow_business_unit"
          helperText={translate('resources.print-template-mappings.help.allow_business_unit')}
        />
        <BuCodesInput
          source="deny_business_unit"
          helperText={translate('resources.print-template-mappings.help.deny_business_unit')}
        />
        <LiveUnknownCodes saved={record?.unknown_business_unit_codes} />
      </Box>
      <BooleanInput
        source="is_active"
        label="resources.print-template-mappings.fields.is_active"
        helperText="resources.print-template-mappings.help.is_active"
      />
    </SimpleForm>
  );
};
