// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { PromptForm } from './PromptForm.tsx';

afterEach(cleanup);

describe('PromptForm', () => {
  it('counts code points, not UTF-16 units', async () => {
    render(<PromptForm busy={false} onWrite={vi.fn()} />);
    await userEvent.type(screen.getByLabelText('Prompt'), 'ab😀');
    expect(screen.getByText('3 / 8,000 characters')).toBeTruthy();
  });

  it('refuses an empty prompt without calling the server', async () => {
    const onWrite = vi.fn();
    render(<PromptForm busy={false} onWrite={onWrite} />);
    await userEvent.click(screen.getByRole('button', { name: 'Write' }));
    expect(await screen.findByText('prompt must not be empty')).toBeTruthy();
    expect(screen.getByLabelText('Prompt').getAttribute('aria-invalid')).toBe('true');
    expect(onWrite).not.toHaveBeenCalled();
  });

  it('refuses 8001 characters and marks the counter', async () => {
    const onWrite = vi.fn();
    render(<PromptForm busy={false} onWrite={onWrite} />);
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'x'.repeat(8001) } });
    expect(await screen.findByText('prompt must be at most 8000 characters')).toBeTruthy();
    expect(screen.getByText('8,001 / 8,000 characters').className).toContain('over');
    await userEvent.click(screen.getByRole('button', { name: 'Write' }));
    expect(onWrite).not.toHaveBeenCalled();
  });

  it('sends a valid prompt and shows a 422 from the server at the field', async () => {
    const onWrite = vi.fn().mockRejectedValue(
      new ApiError(422, { error: 'invalid_request', message: 'Invalid request', issues: [{ path: 'prompt', message: 'server says no' }] }),
    );
    render(<PromptForm busy={false} onWrite={onWrite} />);
    await userEvent.type(screen.getByLabelText('Prompt'), 'A short poem');
    await userEvent.click(screen.getByRole('button', { name: 'Write' }));
    await waitFor(() => expect(onWrite).toHaveBeenCalledWith({ prompt: 'A short poem' }));
    expect(await screen.findByText('server says no')).toBeTruthy();
  });
});
