import { useQuery } from '@tanstack/react-query';
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
