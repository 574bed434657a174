// Validates JSON values against the contract's schemas (OpenAPI 3.0 `nullable` included).
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { loadBundledSpec } from './spec.js';

const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

export function createSchemaValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(loadBundledSpec(), 'spec');
  return {
    /** Returns the validation errors of `value` against `#/components/schemas/<name>` (or a full JSON pointer). */
    errors(ref: string, value: unknown): string[] {
      const pointer = ref.startsWith('#') ? ref : `#/components/schemas/${ref}`;
      const validate = ajv.getSchema(`spec${pointer}`);
      if (!validate) throw new Error(`no schema at ${pointer}`);
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    },
  };
}
