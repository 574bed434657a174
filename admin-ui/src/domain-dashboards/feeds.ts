import { useQuery } from '@tanstack/react-query';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import type { ApprovalDocType } from '../types';
import { PENDING_DOC_OF } from './sampleContent';

export function usePendingCount(doc: ApprovalDocType) {
  const dataProvider = useAppDataProvider();
  return useQuery({
    queryKey: ['my-pending', PENDING_DOC_OF[doc], 'count'],
    queryFn: () => dataProvider.getMyPendingCount(PENDING_DOC_OF[doc]),
  });
}

export function useApprovalFeed(source: 'summary' | 'pending') {
  const dataProvider = useAppDataProvider();
  return useQuery({
    queryKey: ['approval', source],
    queryFn: () => (source === 'summary' ? dataProvider.getApprovalSummary() : dataProvider.getPendingApprovals()),
  });
}
