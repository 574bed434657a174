import type { Messages } from '../lib/messages';

/** The list screens' shared words: search, filters, columns, paging. */
export const en: Messages = {
  app: {
    list: {
      search: 'Search',
      filters: 'Filters',
      status: 'Status',
      show_deleted: 'Show soft-deleted',
      clear_filters: 'Clear',
      any: 'Any',
      deleted_badge: 'Deleted',
      deleted_column: 'Deleted',
      created: 'Created',
      updated: 'Updated',
      actions: 'Actions',
      open: 'Open',
      no_actions: 'No actions available',
      restore: 'Restore',
      delete_title: 'Delete "%{name}"?',
      delete_content: 'The record is soft-deleted and hidden from the default list.',
      empty: 'Nothing here yet',
      no_results: 'No records match the search or filters',
      range: '%{from}–%{to} of %{count}',
      go_to_first: 'Go to the first page',
      go_to_last: 'Go to the last page',
      go_to_next: 'Go to the next page',
      go_to_previous: 'Go to the previous page',
    },
  },
};
