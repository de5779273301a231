import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';

/**
 * For component tests: render `ui` under a fresh react-query client that does not retry, so a
 * failed request shows at once and no cache leaks from one test into the next.
 */
export function renderWithQuery(ui: ReactElement) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {ui}
    </QueryClientProvider>,
  );
}
