import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { AdminContext, HttpError } from 'react-admin';
import { render } from '@testing-library/react';
import { i18nProvider } from '../i18n';
import { ErrorState } from './ErrorState';

const renderWithAdmin = (ui: ReactElement) => render(<AdminContext i18nProvider={i18nProvider}>{ui}</AdminContext>);

describe('a failed load', () => {
  it('when the server failed, then its message shows with a retry', async () => {
    const retry = vi.fn();
    renderWithAdmin(<ErrorState error={new HttpError('Database unavailable', 503, {})} onRetry={retry} />);
    expect(await screen.findByTestId('error-state')).toHaveTextContent(
      'Could not load the data — Database unavailable',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('when the record is missing (404), then it says so in words, without the server text or a retry', async () => {
    renderWithAdmin(<ErrorState error={new HttpError('/params/id not found', 404, {})} onRetry={() => undefined} />);
    const state = await screen.findByTestId('error-state');
    expect(state).toHaveTextContent('This record does not exist, was deleted, or is not shared with you.');
    expect(state).not.toHaveTextContent('/params/id');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});
