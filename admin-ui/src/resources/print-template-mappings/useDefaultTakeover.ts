import { useState } from 'react';
import { useDataProvider, useSaveContext, type RaRecord } from 'react-admin';
import type { PrintTemplateMapping } from '../../types';
import { mappingTitle } from './representation';

type Values = Partial<PrintTemplateMapping> & Record<string, unknown>;

/**
 * Saving a mapping as the default takes the default away from the one its document type has now. Before such a
 * save, the current default is looked up; when there is one, the save waits for the operator to confirm, with the
 * mapping that loses its default named.
 */
export function useDefaultTakeover(record: Partial<PrintTemplateMapping> | undefined) {
  const dataProvider = useDataProvider();
  const { save } = useSaveContext();
  const [pending, setPending] = useState<{ values: Values; loser: string } | null>(null);

  const currentDefaultOf = async (documentType: string) => {
    const { data } = await dataProvider.getList<PrintTemplateMapping & RaRecord>('print-template-mappings', {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'id', order: 'ASC' },
      filter: { document_type: documentType },
    });
    return data.find((m) => m.is_default && m.id !== record?.id);
  };

  const onSubmit = async (values: Values) => {
    const becomesDefault =
      values.is_default === true && (!record?.is_default || record.document_type !== values.document_type);
    if (becomesDefault && typeof values.document_type === 'string') {
      const loser = await currentDefaultOf(values.document_type);
      if (loser) {
        setPending({ values, loser: mappingTitle(loser) });
        return;
      }
    }
    await save?.(values);
  };

  return {
    onSubmit,
    /** The mapping that would lose its default, while the confirmation is open. */
    loser: pending?.loser ?? null,
    confirm: async () => {
      const values = pending?.values;
      setPending(null);
      if (values) await save?.(values);
    },
    cancel: () => setPending(null),
  };
}
