import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { WidgetTitle } from './WidgetTitle';
import { renderWithAdmin } from '../test/renderWithAdmin';

const open = () => fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
const input = () => screen.getByLabelText('Widget title');

describe('WidgetTitle', () => {
  it('when Enter is pressed, then the trimmed title is saved once and the title shows again', () => {
    const onRename = vi.fn();
    renderWithAdmin(<WidgetTitle title="Old" fallback="Dataset" onRename={onRename} />, {});
    open();
    fireEvent.change(input(), { target: { value: '  New name ' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(onRename).toHaveBeenCalledTimes(1);
    expect(onRename).toHaveBeenCalledWith('New name');
    expect(screen.queryByLabelText('Widget title')).toBeNull();
  });

  it('when Escape is pressed, then nothing is saved', () => {
    const onRename = vi.fn();
    renderWithAdmin(<WidgetTitle title="Old" fallback="Dataset" onRename={onRename} />, {});
    open();
    fireEvent.change(input(), { target: { value: 'Other' } });
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(onRename).not.toHaveBeenCalled();
    expect(screen.getByTestId('widget-title')).toHaveTextContent('Old');
  });

  it('when cleared, then null is sent and the dataset name is shown; an unchanged title sends nothing', () => {
    const onRename = vi.fn();
    renderWithAdmin(<WidgetTitle title="Old" fallback="Dataset" onRename={onRename} />, {});
    open();
    fireEvent.change(input(), { target: { value: '   ' } });
    fireEvent.blur(input());
    expect(onRename).toHaveBeenCalledWith(null);
    open();
    fireEvent.blur(input());
    expect(onRename).toHaveBeenCalledTimes(1);
  });
});
