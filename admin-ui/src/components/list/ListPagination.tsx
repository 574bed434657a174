import { useTranslate } from 'react-admin';
import { TablePagination } from '@mui/material';

/**
 * The pagination of a list that reads its own page (1-based `page`, `perpage` rows). A new page size starts again at
 * page 1, so the caller gets `{ perpage }` without a page.
 */
export const ListPagination = (props: {
  total: number;
  page: number;
  perpage: number;
  options: readonly number[];
  onChange: (change: { page?: number; perpage?: number }) => void;
}) => {
  const translate = useTranslate();
  return (
    <TablePagination
      component="div"
      count={props.total}
      page={Math.max(0, props.page - 1)}
      rowsPerPage={props.perpage}
      rowsPerPageOptions={[...props.options]}
      onPageChange={(_, p) => props.onChange({ page: p + 1 })}
      onRowsPerPageChange={(e) => props.onChange({ perpage: Number(e.target.value) })}
      labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
      labelDisplayedRows={({ from, to, count }) => translate('app.list.range', { from, to, count })}
      getItemAriaLabel={(type) => translate(`app.list.go_to_${type}`)}
    />
  );
};
