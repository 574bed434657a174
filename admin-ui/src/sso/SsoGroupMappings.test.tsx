import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import type { SsoGroupMapping, SsoGroupMappingInput } from '../types';
import { SUPER, USER_READER, renderRoutes } from '../resources/users/testing';
import { AppMenu } from '../layout/AppMenu';
import { SsoGroupMappings } from './SsoGroupMappingsPage';

const mapping = (id: string, extra: Partial<SsoGroupMapping> = {}): SsoGroupMapping => ({
  id,
  provider: 'entra',
  group: 'hotel-operators',
  permission_key: 'cluster.read',
  cluster_id: 'c1',
  cluster_code: 'CL-A',
  created_at: '2026-11-20T07:45:00.000Z',
  grants_fully: true,
  not_granting_reason: null,
  ...extra,
});

const clusters = [{ id: 'c1', code: 'CL-A', name: 'Andaman', is_active: true }];
const PROVIDERS = [
  { id: 'entra', display_name: 'Microsoft Entra ID' },
  { id: 'google', display_name: 'Google Workspace' },
];

const TWO = [
  mapping('m1'),
  mapping('m2', {
    provider: 'google',
    group: 'auditors',
    permission_key: 'user.read',
    cluster_id: null,
    cluster_code: null,
  }),
];

/** The screen over stub calls; `firstLoad` fails the first read of the list. */
function setup(initial: SsoGroupMapping[] = TWO, firstLoad?: Error) {
  let held = initial;
  let failNext = firstLoad;
  const dp = {
    getList: vi.fn(async () => ({ data: clusters, total: 1 })),
    listSsoProviders: vi.fn(async () => PROVIDERS),
    listSsoGroupMappings: vi.fn(async () => {
      const failure = failNext;
      failNext = undefined;
      if (failure) throw failure;
      return held;
    }),
    createSsoGroupMapping: vi.fn(async (input: SsoGroupMappingInput): Promise<SsoGroupMapping> => {
      if (held.some((m) => m.group === input.group && m.permission_key === input.permission_key)) {
        throw new HttpError('This mapping exists already', 409, { status: 409, detail: 'This mapping exists already' });
      }
      const added = mapping('m3', {
        ...input,
        cluster_id: input.cluster_id ?? null,
        cluster_code: input.cluster_id ? 'CL-A' : null,
      });
      held = [...held, added];
      return added;
    }),
    deleteSsoGroupMapping: vi.fn(async (id: string) => {
      held = held.filter((m) => m.id !== id);
    }),
  };
  renderRoutes('/sso/group-mappings', SUPER, dp, [{ path: '/sso/group-mappings', element: <SsoGroupMappings /> }]);
  return dp;
}

async function choose(dialog: HTMLElement, testId: string, option: string) {
  fireEvent.mouseDown(within(within(dialog).getByTestId(testId)).getByRole('combobox'));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

beforeEach(() => localStorage.clear());

describe('the single sign-on screen', { timeout: 30_000 }, () => {
  it('lists each mapping with its provider’s name, group, key in words and cluster code or all clusters', async () => {
    setup();
    const [one, all] = await screen.findAllByTestId('mapping-row');
    expect(one).toHaveTextContent('Microsoft Entra ID');
    expect(one).toHaveTextContent('hotel-operators');
    expect(one).toHaveTextContent('Read clusters');
    expect(one).toHaveTextContent('CL-A');
    expect(all).toHaveTextContent('Google Workspace');
    expect(all).toHaveTextContent('Read users');
    expect(all).toHaveTextContent('All clusters');
  });

  it('when a mapping no longer grants (its author lost the key), then its row carries a warning that says why', async () => {
    setup([
      mapping('m1'),
      mapping('m2', {
        group: 'night-audit',
        grants_fully: false,
        not_granting_reason: 'Its author jdoe no longer holds cluster.read on this cluster',
      }),
    ]);
    const [granting, stale] = await screen.findAllByTestId('mapping-row');
    expect(within(granting!).queryByTestId('mapping-not-granting')).toBeNull();
    const chip = within(stale!).getByTestId('mapping-not-granting');
    expect(chip).toHaveTextContent('Grants nothing');
    fireEvent.mouseOver(chip);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/may no longer grant this permission here/);
  });

  it('when there is no mapping, then it says so', async () => {
    setup([]);
    expect(await screen.findByTestId('mappings-empty')).toHaveTextContent('No group gives grants yet');
  });

  it('when the list fails to load, then the error shows with a retry', async () => {
    const dp = setup(
      undefined,
      new HttpError('Database unavailable', 400, { status: 400, detail: 'Database unavailable' }),
    );
    expect(await screen.findByTestId('error-state')).toHaveTextContent('Database unavailable');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findAllByTestId('mapping-row')).toHaveLength(2);
    expect(dp.listSsoGroupMappings).toHaveBeenCalledTimes(2);
  });

  it('adds a cluster key on one cluster, and shows the server’s 409 in the dialog', async () => {
    const dp = setup();
    await screen.findAllByTestId('mapping-row');
    fireEvent.click(screen.getByTestId('mapping-add'));
    let dialog = await screen.findByTestId('add-mapping-dialog');
    await choose(dialog, 'mapping-provider', 'Microsoft Entra ID');
    fireEvent.change(within(dialog).getByTestId('mapping-group'), { target: { value: 'hotel-operators' } });
    await choose(dialog, 'mapping-key', 'Read clusters');
    fireEvent.click(within(dialog).getByTestId('add-mapping-submit'));
    expect(await within(dialog).findByTestId('add-mapping-error')).toHaveTextContent('This mapping exists already');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByTestId('mapping-add'));
    dialog = await screen.findByTestId('add-mapping-dialog');
    await choose(dialog, 'mapping-provider', 'Microsoft Entra ID');
    fireEvent.change(within(dialog).getByTestId('mapping-group'), { target: { value: 'night-auditors' } });
    await choose(dialog, 'mapping-key', 'Update clusters');
    fireEvent.mouseDown(within(dialog).getByTestId('mapping-cluster'));
    fireEvent.click(await screen.findByRole('option', { name: 'CL-A — Andaman' }));
    fireEvent.click(within(dialog).getByTestId('add-mapping-submit'));
    await waitFor(() =>
      expect(dp.createSsoGroupMapping).toHaveBeenLastCalledWith({
        provider: 'entra',
        group: 'night-auditors',
        permission_key: 'cluster.update',
        cluster_id: 'c1',
      }),
    );
    expect(await screen.findByText('Group "night-auditors" now gives "Update clusters"')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('mapping-row')).toHaveLength(3));
  });

  it('gives a platform key no cluster', async () => {
    const dp = setup([]);
    await screen.findByTestId('mappings-empty');
    fireEvent.click(screen.getByTestId('mapping-add'));
    const dialog = await screen.findByTestId('add-mapping-dialog');
    await choose(dialog, 'mapping-provider', 'Google Workspace');
    fireEvent.change(within(dialog).getByTestId('mapping-group'), { target: { value: 'auditors' } });
    await choose(dialog, 'mapping-key', 'Manage grants');
    expect(within(dialog).queryByTestId('mapping-cluster')).not.toBeInTheDocument();
    expect(within(dialog).getByText('This permission holds on all clusters only.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByTestId('add-mapping-submit'));
    await waitFor(() =>
      expect(dp.createSsoGroupMapping).toHaveBeenCalledWith({
        provider: 'google',
        group: 'auditors',
        permission_key: 'grant.manage',
        cluster_id: null,
      }),
    );
  });

  it('deletes a mapping only after the confirmation', async () => {
    const dp = setup();
    fireEvent.click((await screen.findAllByTestId('mapping-remove'))[0]!);
    expect(await screen.findByText('Delete the mapping of "hotel-operators"?')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Accounts created from now on no longer get "Read clusters" on CL-A. Existing accounts keep their grants.',
      ),
    ).toBeInTheDocument();
    expect(dp.deleteSsoGroupMapping).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(dp.deleteSsoGroupMapping).toHaveBeenCalledWith('m1'));
    expect(await screen.findByText('The mapping of "hotel-operators" was deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('mapping-row')).toHaveLength(1));
  });

  it('when a delete is refused, then the server’s detail shows', async () => {
    const dp = setup();
    dp.deleteSsoGroupMapping.mockRejectedValueOnce(
      new HttpError('No such mapping', 404, { status: 404, detail: 'No such mapping' }),
    );
    fireEvent.click((await screen.findAllByTestId('mapping-remove'))[0]!);
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('mapping-error')).toHaveTextContent('No such mapping');
  });
});

describe('the menu entry of single sign-on', { timeout: 30_000 }, () => {
  it('shows for grant.manage only', async () => {
    renderRoutes('/', SUPER, {}, [{ path: '/', element: <AppMenu /> }]);
    expect(await screen.findByRole('menuitem', { name: 'Single sign-on' })).toBeInTheDocument();
  });

  it('stays hidden without grant.manage', async () => {
    renderRoutes('/', USER_READER, {}, [{ path: '/', element: <AppMenu /> }]);
    // The audit log's entry is decided the same way, by the grants: once it shows, so would single sign-on's.
    expect(await screen.findByRole('menuitem', { name: 'Audit log' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Single sign-on' })).not.toBeInTheDocument();
  });
});
