import { useQuery } from '@tanstack/react-query';
import { useCanAccess, useGetList } from 'react-admin';
import type { BusinessUnit } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';

/** The ten document types (they never change while the console is open). */
export function useDocumentTypes() {
  const dataProvider = useAppDataProvider();
  return useQuery({
    queryKey: ['print-template-mappings', 'document-types'],
    queryFn: () => dataProvider.getDocumentTypes(),
    staleTime: Infinity,
  });
}

/** Every live report template, for the mapping form's template select. */
export function useReportTemplates() {
  const dataProvider = useAppDataProvider();
  return useQuery({
    queryKey: ['report-templates', 'all'],
    queryFn: async () => (await dataProvider.getReportTemplates({ perpage: -1 })).data,
    staleTime: 60_000,
  });
}

/**
 * The live business units the caller may read, by code, for picking a code in the resolve tester. A caller without
 * the read grant gets none (and asks for none); the code can still be typed.
 */
export function useBusinessUnitChoices() {
  return useBusinessUnitCodes().choices;
}

/**
 * The live business units the caller may read, and whether that list is known (loaded, and the caller may list
 * them): only then can a code be called unknown.
 */
export function useBusinessUnitCodes() {
  const { canAccess } = useCanAccess({ action: 'list', resource: 'business-units' });
  const list = useGetList<BusinessUnit>(
    'business-units',
    { pagination: { page: 1, perPage: -1 }, sort: { field: 'code', order: 'ASC' } },
    { enabled: canAccess === true, staleTime: 60_000 },
  );
  const choices = (list.data ?? []).map((bu) => ({ code: bu.code, name: bu.name }));
  const known = new Set(choices.map((c) => c.code.toLowerCase()));
  return {
    choices,
    ready: canAccess === true && list.isSuccess,
    /** The codes no live business unit has, compared regardless of case as resolve does. */
    unknownOf: (codes: readonly string[]) => codes.filter((c) => !known.has(c.toLowerCase())),
  };
}
