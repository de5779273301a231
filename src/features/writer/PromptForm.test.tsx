// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { PromptForm } from './PromptForm.tsx';

afterEach(cleanup);

describe('PromptForm', () => {
  it('counts code points, not UTF-16 units', async () => {
    render(<PromptForm busy={false} onWrite={vi.fn()} onStop={() => undefined} />);
    await userEvent.type(screen.getByLabelText('Prompt'), 'ab😀');
    expect(screen.getByText('3 / 8,000 characters')).toBeTruthy();
  });

  it('refuses an empty prompt without calling the server', async () => {
    const onWrite = vi.fn();
    render(<PromptForm busy={false} onWrite={onWrite} onStop={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Write' }));
    expect(await screen.findByText('Enter a prompt.')).toBeTruthy();
    expect(screen.getByLabelText('Prompt').getAttribute('aria-invalid')).toBe('true');
    expect(onWrite).not.toHaveBeenCalled();
  });

  it('refuses 8001 characters and marks the counter', async () => {
    const onWrite = vi.fn();
    render(<PromptForm busy={false} onWrite={onWrite} onStop={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'x'.repeat(8001) } });
    expect(await screen.findByText('Prompt must be at most 8000 characters.')).toBeTruthy();
    expect(screen.getByText('8,001 / 8,000 characters').className).toContain('over');
    await userEvent.click(screen.getByRole('button', { name: 'Write' }));
    expect(onWrite).not.toHaveBeenCalled();
  });

  it('sends a valid prompt and shows a 422 from the server at the field', async () => {
    const onWrite = vi.fn().mockRejectedValue(
      new ApiError(422, {
        error: 'invalid_request',
        message: 'Invalid request',
        issues: [{ path: 'prompt', message: 'server says no' }],
      }),
    );
    render(<PromptForm busy={false} onWrite={onWrite} onStop={() => undefined} />);
    await userEvent.type(screen.getByLabelText('Prompt'), 'A short poem');
    await userEvent.click(screen.getByRole('button', { name: 'Write' }));
    await waitFor(() => expect(onWrite).toHaveBeenCalledWith({ prompt: 'A short poem' }));
    expect(await screen.findByText('Server says no.')).toBeTruthy();
  });

  it('writes on Ctrl+Enter and on Cmd+Enter', async () => {
    const onWrite = vi.fn().mockResolvedValue(undefined);
    render(<PromptForm busy={false} onWrite={onWrite} onStop={() => undefined} />);
    await userEvent.type(screen.getByLabelText('Prompt'), 'Notes');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(onWrite).toHaveBeenCalledTimes(1));
    await userEvent.keyboard('{Meta>}{Enter}{/Meta}');
    await waitFor(() => expect(onWrite).toHaveBeenCalledTimes(2));
    // A plain Enter is a new line.
    await userEvent.keyboard('{Enter}');
    expect(onWrite).toHaveBeenCalledTimes(2);
  });

  it('offers Stop while writing, and puts a restored prompt back in the box', async () => {
    const onStop = vi.fn();
    const { rerender } = render(<PromptForm busy onWrite={vi.fn()} onStop={onStop} />);
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);
    rerender(<PromptForm busy={false} onWrite={vi.fn()} onStop={onStop} restore={{ prompt: 'From history', at: 1 }} />);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    await waitFor(() => expect((screen.getByLabelText('Prompt') as HTMLTextAreaElement).value).toBe('From history'));
  });
});
