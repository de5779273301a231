import { useId, useMemo, useState } from 'react';
import { loadSettings } from '../../api/settings.ts';
import { CopyableText } from '../../components/CopyableText.tsx';
import { TabList, TabPanel } from '../../components/TabList.tsx';

/** What stands in for the key in every snippet: the dashboard never prints a real one. */
export const KEY_PLACEHOLDER = '<your key>';

/**
 * The MCP endpoint of the server this dashboard talks to: the saved API base (absolute, as a saved
 * base may be relative) plus /mcp, so a dashboard pointed at another server shows that server's.
 */
export function mcpEndpoint(baseUrl = loadSettings().baseUrl): string {
  return `${new URL(baseUrl, window.location.href).toString().replace(/\/+$/, '')}/mcp`;
}

type ConfigKey = 'http' | 'stdio';

/**
 * Ready-to-paste `mcpServers` entries. Streamable HTTP for clients that speak it (Claude Code,
 * Cursor, VS Code); the stdio bridge (bin/browserdesk.mjs, `browserdesk mcp`, the README's
 * command) for those that speak stdio only (Claude Desktop). The bridge is given the endpoint
 * itself, which it takes as is, and the key through its environment, out of the process list.
 */
export function mcpConfigs(endpoint: string): { key: ConfigKey; label: string; hint: string; code: string }[] {
  const json = (server: object) => JSON.stringify({ mcpServers: { browserdesk: server } }, null, 2);
  return [
    {
      key: 'http',
      label: 'Streamable HTTP',
      hint: 'For clients that speak Streamable HTTP: Claude Code, Cursor, VS Code.',
      code: json({ type: 'http', url: endpoint, headers: { 'X-API-Key': KEY_PLACEHOLDER } }),
    },
    {
      key: 'stdio',
      label: 'stdio bridge',
      hint: 'For clients that speak stdio only, such as Claude Desktop: the bridge relays to this server.',
      code: json({
        command: 'npx',
        args: ['browserdesk', 'mcp', '--url', endpoint],
        env: { BROWSERDESK_API_KEY: KEY_PLACEHOLDER },
      }),
    },
  ];
}

/** Settings card: where an AI agent reaches the browser tools, and the config to paste into its client. */
export function McpSection() {
  // Read on every render: saving another base URL above re-renders the page, and this follows it.
  const endpoint = mcpEndpoint();
  const configs = useMemo(() => mcpConfigs(endpoint), [endpoint]);
  const [tab, setTab] = useState<ConfigKey>('http');
  const id = useId();

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Browser tools for agents (MCP)</h2>
      <p>
        AI agents open sessions and drive their browsers through this server&apos;s MCP endpoint. Their sessions show up
        under Sessions like any other, and you can watch them live.
      </p>
      <CopyableText label="MCP endpoint" copyLabel="Copy endpoint" text={endpoint} testId="mcp-endpoint" />
      <TabList
        label="MCP client config"
        idPrefix={id}
        tabs={configs}
        selected={tab}
        onSelect={(key) => setTab(key)}
        className="tabs tabs-wrap"
        style={{ marginTop: '1rem' }}
      />
      {configs.map((c) => (
        <TabPanel key={c.key} idPrefix={id} tabKey={c.key} selected={tab}>
          <p className="hint">{c.hint}</p>
          <CopyableText
            label={`${c.label} config`}
            copyLabel="Copy config"
            text={c.code}
            testId={`mcp-config-${c.key}`}
            code
          />
        </TabPanel>
      ))}
      <p className="hint">
        Replace <code>{KEY_PLACEHOLDER}</code> with an API key (create one for the agent under API keys above); it is
        not shown here.
      </p>
    </section>
  );
}
