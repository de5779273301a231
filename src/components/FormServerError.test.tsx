// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FormServerError } from './FormServerError.tsx';

afterEach(cleanup);

describe('FormServerError', () => {
  it('announces the message as an alert', () => {
    render(<FormServerError message="metadata: must be JSON" />);
    expect(screen.getByRole('alert').textContent).toBe('metadata: must be JSON');
  });

  it('renders nothing without a message', () => {
    const { container } = render(<FormServerError message={undefined} />);
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
