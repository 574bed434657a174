import type { Messages } from '../lib/messages';

/** Words every screen shares: save feedback, buttons, statuses, the autocomplete's controls. */
export const en: Messages = {
  app: {
    feedback: {
      saved: '%{resource} %{name} saved',
      created: '%{resource} %{name} created',
      deleted: '%{resource} %{name} deleted',
      restored: '%{resource} %{name} restored',
      save_failed: '%{resource} %{name} was not saved: %{reason}',
      create_failed: '%{resource} %{name} was not created: %{reason}',
      delete_failed: '%{resource} %{name} was not deleted: %{reason}',
      restore_failed: '%{resource} %{name} was not restored: %{reason}',
    },
    common: {
      retry: 'Retry',
      // A failure said by its reason alone (the server's detail).
      failed: '%{reason}',
      close: 'Close',
      load_error: 'Could not load the data',
      save_changes: 'Save Changes',
      unlimited: 'Unlimited',
      none: 'None',
      stale_record:
        'Someone else saved this record after you opened it. Their version is shown now; edit again to apply your changes.',
    },
    status: { active: 'Active', inactive: 'Inactive' },
    autocomplete: {
      open: 'Open the list',
      close: 'Close the list',
      clear: 'Clear',
      no_options: 'No matches',
      loading: 'Loading…',
    },
  },
};
