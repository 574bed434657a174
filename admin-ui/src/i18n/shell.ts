import type { Messages } from '../lib/messages';

/** The console's frame: title, sign-in, menu, access-denied and not-found pages, session and unsaved prompts. */
export const en: Messages = {
  ra: {
    navigation: { page_range_info: '%{offsetBegin}–%{offsetEnd} of %{total}' },
    notification: {
      updated: 'Changes saved |||| %{smart_count} records saved',
      created: 'Record created',
      deleted: 'Record deleted |||| %{smart_count} records deleted',
      bad_item: 'This record is not valid',
      item_doesnt_exist: 'This record does not exist',
    },
  },
  app: {
    title: 'Platform Administration',
    language: 'Language: %{language}',
    login: {
      subtitle: 'Sign in to manage clusters, business units and print templates',
      throttled:
        'Too many failed sign-in attempts. Try again in %{smart_count} minute. |||| Too many failed sign-in attempts. Try again in %{smart_count} minutes.',
    },
    menu: {
      workspace: 'My workspace',
      domain_dashboards: 'Domain dashboards',
      // The menu entry and the page title of each domain dashboard: one label per concept.
      domains: {
        main: 'Main dashboard',
        pr: 'Purchase Request',
        po: 'Purchase Order',
        grn: 'Good Received Note',
        inventory: 'Inventory',
        sr: 'Store Requisition',
      },
    },
    access_denied: {
      title: 'Access denied',
      message: 'You do not have permission to open this page.',
      not_found: 'The record may also not exist, or no longer exist.',
      back: 'Back to the workspace',
    },
    not_found: {
      title: 'Not found',
      page: 'There is no page at this address. The link may be wrong or out of date.',
      record:
        'This record does not exist, was deleted, or is not shared with you. The link may be wrong or out of date.',
      back: 'Back to the workspace',
      back_to_list: 'Back to %{list}',
    },
    session: {
      title: 'Your session has expired',
      message:
        'Sign in again to carry on. Nothing on this page is lost: what you were saving is sent once you are signed in.',
      sign_in: 'Sign in and continue',
      ended: 'you signed out before it was sent',
    },
    unsaved: {
      title: 'Unsaved changes',
      message: 'You have unsaved changes. Leave this page and lose them?',
      leave: 'Leave',
      stay: 'Stay',
    },
  },
};
