import type { ComponentType } from 'react';
import type { ResourceProps } from 'react-admin';
import type { ResourceName } from '../auth/permissions';
import { clusters } from './clusters';
import { businessUnits } from './business-units';
import { printTemplateMappings } from './print-template-mappings';
import { users } from './users';

interface ResourceEntry<N extends ResourceName = ResourceName> {
  name: N;
  /** Translation key of the menu entry, shown in its plural form. */
  menuLabel: string;
  icon: ComponentType;
  /** The list screen; `preload` fetches its code ahead of the first visit. */
  list: ComponentType & { preload?: () => void };
  create: ComponentType;
  edit: ComponentType;
  /** The read view, for anyone with the read grant. */
  show: ComponentType;
  recordRepresentation?: ResourceProps['recordRepresentation'];
  /**
   * `product`: `/create`, `/:id/edit` and `/:id` (the read view), `/new` leading to `/create`; each page checks its
   * own access. `react-admin`: react-admin's own `/create`, `/:id` (edit) and `/:id/show`.
   */
  routes: 'product' | 'react-admin';
}

/**
 * Every resource of the console, in menu order: App registers them and the menu draws them. Keyed by the names
 * the access rules know, so a resource cannot be added here without its rules, nor rules without a screen.
 */
const REGISTRY: { readonly [N in ResourceName]: ResourceEntry<N> } = {
  clusters: {
    name: 'clusters',
    menuLabel: 'resources.clusters.name',
    ...clusters,
    recordRepresentation: 'name',
    routes: 'product',
  },
  'business-units': {
    name: 'business-units',
    menuLabel: 'resources.business-units.name',
    ...businessUnits,
    recordRepresentation: 'name',
    routes: 'product',
  },
  'print-template-mappings': {
    name: 'print-template-mappings',
    menuLabel: 'resources.print-template-mappings.name',
    ...printTemplateMappings,
    routes: 'react-admin',
  },
  users: {
    name: 'users',
    menuLabel: 'resources.users.name',
    ...users,
    recordRepresentation: 'username',
    routes: 'product',
  },
};

export const RESOURCES: readonly ResourceEntry[] = Object.values(REGISTRY);
