// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSettings } from '../../api/settings.ts';
import { KEY_PLACEHOLDER, McpSection, mcpConfigs, mcpEndpoint } from './McpSection.tsx';

const KEY = 'bd_live_secret_key_0123456789';

beforeEach(() => {
  window.localStorage.clear();
  saveSettings({ baseUrl: 'https://desk.example.com/api', apiKey: KEY });
});
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('McpSection', () => {
  it('shows the endpoint of the server the dashboard talks to, and a config per transport, never the key', async () => {
    const { container } = render(<McpSection />);
    expect(screen.getByRole('heading', { name: 'Browser tools for agents (MCP)' })).toBeTruthy();
    expect(screen.getByTestId('mcp-endpoint').textContent).toBe('https://desk.example.com/api/mcp');
    const http = JSON.parse(screen.getByTestId('mcp-config-http').textContent!) as unknown;
    expect(http).toEqual({
      mcpServers: {
        browserdesk: {
          type: 'http',
          url: 'https://desk.example.com/api/mcp',
          headers: { 'X-API-Key': KEY_PLACEHOLDER },
        },
      },
    });
    const stdio = JSON.parse(screen.getByTestId('mcp-config-stdio').textContent!) as unknown;
    expect(stdio).toEqual({
      mcpServers: {
        browserdesk: {
          command: 'npx',
          args: ['browserdesk', 'mcp', '--url', 'https://desk.example.com/api/mcp'],
          env: { BROWSERDESK_API_KEY: KEY_PLACEHOLDER },
        },
      },
    });
    expect(container.textContent).not.toContain(KEY);
  });

  it('switches configs as tabs, by click and by keyboard, and copies the one shown', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<McpSection />);
    const tabs = screen.getByRole('tablist', { name: 'MCP client config' });
    const [httpTab, stdioTab] = within(tabs).getAllByRole('tab');
    expect(httpTab!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Streamable HTTP' })).toBeTruthy();

    httpTab!.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(stdioTab!.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(stdioTab);
    const panel = screen.getByRole('tabpanel', { name: 'stdio bridge' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Copy config' }));
    expect(writeText).toHaveBeenCalledWith(screen.getByTestId('mcp-config-stdio').textContent);
    expect(await within(panel).findByText('Copied')).toBeTruthy();

    // From the last tab, the arrow wraps to the first.
    stdioTab!.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(httpTab!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('mcp-config-stdio').closest('[role=tabpanel]')!.hasAttribute('hidden')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Copy endpoint' }));
    expect(writeText).toHaveBeenLastCalledWith('https://desk.example.com/api/mcp');
  });

  it('makes a relative saved base absolute against the dashboard', () => {
    expect(mcpEndpoint('/api/')).toBe(`${window.location.origin}/api/mcp`);
    expect(mcpConfigs('x').map((c) => c.key)).toEqual(['http', 'stdio']);
  });
});
