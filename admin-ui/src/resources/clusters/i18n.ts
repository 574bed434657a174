import type { Messages } from '../../lib/messages';

export const en: Messages = {
  resources: {
    clusters: {
      name: 'Cluster |||| Clusters',
      create_title: 'New cluster',
      edit_title: 'Cluster %{name}',
      fields: {
        logo: 'Logo',
        code: 'Code',
        alias_name: 'Alias',
        name: 'Name',
        max_license_bu: 'Max licensed BUs',
        is_active: 'Active',
        bu_count: 'BUs',
        users_count: 'Users',
      },
      cards: {
        details: 'Cluster Details',
        business_units: 'Business units',
        users: 'Users',
      },
      licensed: '%{count} of %{max} licensed',
      bu_cap_reached: 'The cluster has reached its business unit licence limit',
      no_business_units: 'This cluster has no business units yet',
      users_at_limit: 'Users have reached the licensed total (%{max})',
      alias_help: 'Up to %{max} characters (%{count}/%{max})',
      validation: { alias_too_long: 'At most %{max} characters: shorten the alias' },
      cap_below_use:
        'This cluster already has %{count} business units, more than a cap of %{max}. They stay, but no business unit can be added until the count is below the cap.',
    },
  },
  // The record pages' shared parts (the stale-save dialog, image removal), with the clusters they first served.
  app: {
    record_changed: { title: 'Changed by someone else', ok: 'Show their version' },
    branding: {
      remove: 'Remove',
      remove_title: 'Remove the %{kind}?',
      remove_message: 'The %{kind} is removed at once, apart from Save Changes. Upload a new one to replace it.',
      removed: '%{kind} removed',
      remove_failed: '%{kind} was not removed: %{reason}',
    },
  },
};
