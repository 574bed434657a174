import { describe, expect, it } from 'vitest';
import { BU_SECTIONS, fromFormValues, newBusinessUnitValues, toFormValues } from './businessUnitForm';
import { WRITABLE } from '../../dataProvider/writable';

describe('BU form', () => {
  it('has nine sections covering the 34 writable fields', () => {
    const fields = Object.values(BU_SECTIONS).flat();
    expect(Object.keys(BU_SECTIONS)).toHaveLength(9);
    expect(fields).toHaveLength(34);
    expect([...fields].sort()).toEqual([...WRITABLE.BusinessUnitInput].sort());
  });

  it('starts a new BU with the default number formats (Thai, two integer digits; 10 rows a page) and the query cluster', () => {
    const v = newBusinessUnitValues('c1');
    expect(v.cluster_id).toBe('c1');
    expect(JSON.parse(v.amount_format)).toEqual({ locales: 'th-TH', minimumIntegerDigits: 2 });
    expect(JSON.parse(v.quantity_format)).toEqual({ locales: 'th-TH', minimumIntegerDigits: 2 });
    expect(JSON.parse(v.recipe_format)).toEqual({ locales: 'th-TH', minimumIntegerDigits: 2 });
    expect(JSON.parse(v.perpage_format)).toEqual({ default: 10 });
  });

  it('parses number formats on save and sends the raw string when parsing fails', () => {
    const body = fromFormValues({
      ...toFormValues({ code: 'B' }),
      amount_format: '{"locales":"en-US"}',
      quantity_format: 'not json',
    });
    expect(body.amount_format).toEqual({ locales: 'en-US' });
    expect(body.quantity_format).toBe('not json');
  });

  it('sends db_connection back unchanged and drops incomplete config entries', () => {
    const original = { db_connection: '{"host":"db","port":5432}', config: [] };
    const body = fromFormValues(
      {
        ...toFormValues(original),
        db_connection: '{\n  "host": "edited"\n}',
        config: [
          { key: 'a', label: 'A', datatype: 'number', value: '3' },
          { key: '', label: 'x', datatype: 'string', value: '' },
        ],
      },
      original,
    );
    expect(body.db_connection).toBe('{"host":"db","port":5432}');
    expect(body.config).toEqual([{ key: 'a', label: 'A', datatype: 'number', value: 3 }]);
  });

  it('turns blank optional fields into null', () => {
    const body = fromFormValues({ hotel_name: '', max_license_users: '', calculation_method: '', tax_no: '123' });
    expect(body.hotel_name).toBeNull();
    expect(body.max_license_users).toBeNull();
    expect(body.calculation_method).toBeNull();
    expect(body.tax_no).toBe('123');
  });
});
