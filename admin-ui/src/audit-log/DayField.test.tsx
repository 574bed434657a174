import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { i18nProvider } from '../i18n';
import { DayField } from './DayField';

function renderIn(locale: 'en' | 'th', value: string) {
  const onChange = vi.fn();
  render(
    <AdminContext i18nProvider={i18nProvider} store={memoryStore({ locale })}>
      <DayField label="From" value={value} onChange={onChange} testId="day" />
    </AdminContext>,
  );
  return onChange;
}

describe('a day filter', () => {
  it('shows the picked day the Thai way in Thai, never the browser’s mm/dd/yyyy', async () => {
    renderIn('th', '2026-11-01');
    const text = await screen.findByTestId('day-text');
    expect(text).toHaveValue(new Intl.DateTimeFormat('th-TH', { dateStyle: 'medium' }).format(new Date(2026, 10, 1)));
    expect((text as HTMLInputElement).value).toContain('2569');
    expect((text as HTMLInputElement).value).not.toMatch(/\d{2}\/\d{2}\/\d{4}/);
  });

  it('hands the day on as YYYY-MM-DD, and clears it', async () => {
    const onChange = renderIn('en', '2026-11-01');
    expect(await screen.findByTestId('day-text')).toHaveValue('Nov 1, 2026');
    fireEvent.change(screen.getByTestId('day'), { target: { value: '2026-11-30' } });
    expect(onChange).toHaveBeenLastCalledWith('2026-11-30');
    fireEvent.click(screen.getByRole('button', { name: 'Clear value' }));
    expect(onChange).toHaveBeenLastCalledWith('');
  });
});
