import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, HttpError, testDataProvider } from 'react-admin';
import { i18nProvider } from '../../i18n';
import { createQueryClient } from '../../dataProvider/queryClient';
import type { AuditEvent } from '../../types';
import { HistoryCard, HistoryTab } from './HistoryTab';

const event = (id: string, extra: Partial<AuditEvent> = {}): AuditEvent => ({
  id,
  at: '2026-11-24T09:15:00.000Z',
  actor_id: 'u1',
  actor_name: 'Platform Administrator',
  action: 'updateCluster',
  target_type: 'cluster',
  target_id: 'c1',
  cluster_id: 'c1',
  request_id: 'r1',
  ip: '127.0.0.1',
  user_agent: 'Mozilla/5.0',
  import_id: null,
  changes: {
    name: { before: 'Andaman Hotels Group', after: 'Andaman Hotels & Resorts' },
    is_active: { before: true, after: false },
  },
  ...extra,
});

const page = (data: AuditEvent[], pageNo = 1, pages = 1, nextCursor: string | null = null) => ({
  data,
  paginate: { total: data.length * pages, page: pageNo, perpage: 10, pages, next_cursor: nextCursor },
});

function renderHistory(
  listAuditEvents: (...args: unknown[]) => Promise<unknown>,
  ui = <HistoryTab targetType="cluster" targetId="c1" />,
) {
  render(
    <AdminContext
      dataProvider={testDataProvider({ listAuditEvents })}
      i18nProvider={i18nProvider}
      queryClient={createQueryClient()}
    >
      {ui}
    </AdminContext>,
  );
}

beforeEach(() => localStorage.clear());

describe('the History tab', { timeout: 20_000 }, () => {
  it('asks for the record’s events and shows each field before → after, under its label', async () => {
    const listAuditEvents = vi.fn(async () =>
      page([event('e2'), event('e1', { action: 'createCluster', changes: { code: { before: null, after: 'CL-A' } } })]),
    );
    renderHistory(listAuditEvents);
    const [newest, oldest] = await screen.findAllByTestId('history-event');
    expect(listAuditEvents).toHaveBeenCalledWith({
      target_type: 'cluster',
      target_id: 'c1',
      with_memberships: true,
      page: 1,
      perpage: 10,
      total: 'estimate',
    });
    expect(newest).toHaveTextContent('Updated the cluster');
    expect(newest).toHaveTextContent('Platform Administrator');
    const name = within(newest!)
      .getAllByTestId('history-change')
      .find((r) => r.querySelector('[data-field="name"]'))!;
    expect(within(name).getByText('Name')).toBeInTheDocument();
    expect(within(name).getByTestId('change-before')).toHaveTextContent('Andaman Hotels Group');
    expect(within(name).getByTestId('change-after')).toHaveTextContent('Andaman Hotels & Resorts');
    const active = within(newest!)
      .getAllByTestId('history-change')
      .find((r) => r.querySelector('[data-field="is_active"]'))!;
    expect(within(active).getByTestId('change-before')).toHaveTextContent('Yes');
    expect(within(active).getByTestId('change-after')).toHaveTextContent('No');
    expect(oldest).toHaveTextContent('Created the cluster');
    expect(within(oldest!).getByTestId('change-before')).toHaveTextContent('empty');
    expect(within(oldest!).getByTestId('change-after')).toHaveTextContent('CL-A');
  });

  it('names an action it has no words for, and a field without a label by its name', async () => {
    renderHistory(
      vi.fn(async () =>
        page([event('e1', { action: 'mergeCluster', changes: { secret_field: { before: 1, after: 2 } } })]),
      ),
    );
    expect(await screen.findByText('Action mergeCluster')).toBeInTheDocument();
    expect(screen.getByText('secret_field')).toBeInTheDocument();
  });

  it('says when nothing was recorded', async () => {
    renderHistory(vi.fn(async () => page([])));
    expect(await screen.findByTestId('history-empty')).toHaveTextContent('No changes recorded yet');
  });

  it('shows a failure in words, with a retry', async () => {
    const listAuditEvents = vi
      .fn()
      .mockRejectedValueOnce(new HttpError('Invalid target_id', 400, {}))
      .mockResolvedValue(page([event('e1')]));
    renderHistory(listAuditEvents);
    const error = await screen.findByTestId('error-state');
    expect(error).toHaveTextContent('Invalid target_id');
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('history-event')).toBeInTheDocument();
  });

  it('loads the events after the last one shown on "Show more", by the cursor the server gave', async () => {
    // The first page says two pages by number; only the cursor decides what follows, as an event recorded meanwhile
    // would shift a page by number.
    const listAuditEvents = vi.fn(async (query: unknown) =>
      (query as { cursor?: string }).cursor === 'after-e1.sig'
        ? page([event('e2')], 2, 2)
        : page([event('e1')], 1, 2, 'after-e1.sig'),
    );
    renderHistory(listAuditEvents);
    await screen.findByTestId('history-event');
    fireEvent.click(screen.getByTestId('history-more'));
    await waitFor(() => expect(screen.getAllByTestId('history-event')).toHaveLength(2));
    expect(listAuditEvents).toHaveBeenLastCalledWith(expect.objectContaining({ cursor: 'after-e1.sig' }));
    expect(listAuditEvents.mock.lastCall?.[0]).not.toHaveProperty('page');
    expect(screen.queryByTestId('history-more')).not.toBeInTheDocument();
  });

  it('as a card, reads nothing until unfolded', async () => {
    const listAuditEvents = vi.fn(async () => page([event('e1')]));
    renderHistory(listAuditEvents, <HistoryCard targetType="business_unit" targetId="b1" />);
    expect(await screen.findByText('History')).toBeInTheDocument();
    expect(listAuditEvents).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('history-toggle'));
    expect(await screen.findByTestId('history-event')).toBeInTheDocument();
    expect(listAuditEvents).toHaveBeenCalledWith(
      expect.objectContaining({ target_type: 'business_unit', target_id: 'b1' }),
    );
  });

  it('names things by the labels recorded with the event, each linked to its page', async () => {
    const grant = event('e3', {
      action: 'addUserGrant',
      target_type: 'user',
      target_id: 'u9',
      cluster_id: null,
      changes: { permission_key: { before: null, after: 'cluster.read' } },
      labels: { permission: 'cluster.read', scope: 'CL-S', scope_id: 'c7', user: 'nok', user_id: 'u9' },
    });
    const joined = event('e2', {
      action: 'addClusterUser',
      target_type: 'cluster_user',
      target_id: 'm1',
      changes: { role: { before: null, after: 'admin' } },
      labels: { cluster: 'CL-S', user: 'nok', user_id: 'u9', role: 'admin' },
    });
    const switched = event('e1', {
      changes: { is_active: { before: true, after: false } },
      labels: { cluster: 'CL-S', cluster_name: 'Siam' },
    });
    renderHistory(vi.fn(async () => page([grant, joined, switched])));
    const [granted, added, deactivated] = await screen.findAllByTestId('history-summary');
    expect(granted).toHaveTextContent('Granted Read clusters on CL-S to nok');
    expect(within(granted!).getByRole('link', { name: 'CL-S' })).toHaveAttribute(
      'href',
      expect.stringContaining('/clusters/c7'),
    );
    expect(within(granted!).getByRole('link', { name: 'nok' })).toHaveAttribute(
      'href',
      expect.stringContaining('/users/u9'),
    );
    expect(added).toHaveTextContent('Added nok to CL-S as admin');
    expect(deactivated).toHaveTextContent('Deactivated the cluster CL-S');
  });

  it('shows an image change as its pictures, and says when the old file is no longer stored', async () => {
    const upload = event('e1', {
      action: 'uploadClusterLogo',
      changes: { logo_key: { before: 'old.png', after: 'new.png' } },
      images: { before: null, after: '/files/new.png?signature=x' },
    });
    renderHistory(vi.fn(async () => page([upload])));
    expect(await screen.findByTestId('history-image-after')).toHaveAttribute('src', '/files/new.png?signature=x');
    expect(screen.getByTestId('change-before')).toHaveTextContent('No longer stored');
  });

  it('offers Revert on a field change, naming each field with its value now and the one it goes back to', async () => {
    const rename = event('e1', { changes: { name: { before: 'Old name', after: 'New name' } } });
    const created = event('e0', { action: 'createCluster', changes: { code: { before: null, after: 'CL-A' } } });
    renderHistory(vi.fn(async () => page([rename, created])));
    const [renamed, createdEntry] = await screen.findAllByTestId('history-event');
    expect(within(createdEntry!).queryByTestId('history-revert')).not.toBeInTheDocument();
    fireEvent.click(await within(renamed!).findByTestId('history-revert'));
    const dialog = await screen.findByTestId('revert-dialog');
    expect(within(dialog).getByTestId('revert-field')).toHaveTextContent('Name: New name → Old name');
    fireEvent.click(within(dialog).getByTestId('revert-cancel'));
    await waitFor(() => expect(screen.queryByTestId('revert-dialog')).not.toBeInTheDocument());
  });

  it('says the same in Thai', async () => {
    await i18nProvider.changeLocale('th');
    try {
      const grant = event('e1', {
        action: 'removeUserGrant',
        target_type: 'user',
        target_id: 'u9',
        cluster_id: null,
        changes: { permission_key: { before: 'user.read', after: null } },
        labels: { permission: 'user.read', scope: null, scope_id: null, user: 'nok', user_id: 'u9' },
      });
      renderHistory(vi.fn(async () => page([grant])));
      const summary = await screen.findByTestId('history-summary');
      expect(summary).toHaveTextContent(/^ถอนสิทธิ์ .+ ใน ทุกคลัสเตอร์ จาก nok$/);
      expect(summary).not.toHaveTextContent('Removed');
    } finally {
      await i18nProvider.changeLocale('en');
    }
  });
});
