import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { Button } from '@mui/material';
import { i18nProvider } from '../../i18n';
import { CardTable, type CardColumn } from './CardTable';

interface Row {
  id: string;
  name: string;
  email: string;
}

const columns: CardColumn<Row>[] = [
  { id: 'name', label: 'Name', render: (r) => r.name },
  { id: 'email', label: 'Email', render: (r) => r.email, hideBelow: 'md' },
];

const rows: Row[] = [
  { id: '1', name: 'Nok', email: 'nok@example.com' },
  { id: '2', name: 'Emma', email: 'emma@example.com' },
];

const renderTable = (props: Partial<Parameters<typeof CardTable<Row>>[0]>) =>
  render(
    <AdminContext i18nProvider={i18nProvider}>
      <CardTable<Row>
        rows={rows}
        columns={columns}
        rowKey={(r) => r.id}
        empty="Nobody yet"
        rowTestId="row"
        {...props}
      />
    </AdminContext>,
  );

describe('card table', () => {
  it('renders one row per record and one cell per declared column, headers included', () => {
    renderTable({});
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Email']);
    const body = screen.getAllByTestId('row');
    expect(
      body.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Nok', 'nok@example.com'],
      ['Emma', 'emma@example.com'],
    ]);
  });

  it('shows placeholder rows while the first load runs, and no empty message', () => {
    renderTable({ rows: undefined, loading: true });
    expect(screen.getAllByTestId('card-table-loading')).toHaveLength(3);
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(screen.queryByTestId('card-table-empty')).toBeNull();
  });

  it('says what the caller gives when there is nothing to list', () => {
    renderTable({ rows: [], emptyTestId: 'nobody' });
    expect(screen.getByTestId('nobody').textContent).toBe('Nobody yet');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a failed load with its message and a Retry that calls back', () => {
    const onRetry = vi.fn();
    renderTable({ error: new Error('The server is down'), onRetry });
    expect(screen.getByTestId('error-state').textContent).toContain('The server is down');
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('adds a named actions column, and a click on an action does not open the row', () => {
    const onRowClick = vi.fn<(row: Row) => void>();
    const onRemove = vi.fn<(id: string) => void>();
    renderTable({
      actionsLabel: 'Actions',
      actions: (r) => <Button onClick={() => onRemove(r.id)}>Remove {r.name}</Button>,
      onRowClick,
    });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Email', 'Actions']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Emma' }));
    expect(onRemove).toHaveBeenCalledWith('2');
    expect(onRowClick).not.toHaveBeenCalled();
    fireEvent.click(screen.getByText('Nok'));
    expect(onRowClick).toHaveBeenCalledWith(rows[0]);
  });
});
