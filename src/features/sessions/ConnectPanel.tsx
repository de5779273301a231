import { useId, useMemo, useState } from 'react';
import { loadSettings } from '../../api/settings.ts';
import { CopyableText } from '../../components/CopyableText.tsx';
import { TabList, TabPanel } from '../../components/TabList.tsx';
import { API_KEY_ENV, connectSnippets, type SnippetKey } from './connect-snippets.ts';

/** The API's base address as the dashboard calls it, absolute (a saved base may be relative). */
function absoluteApiBase(): string {
  return new URL(loadSettings().baseUrl, window.location.href).toString().replace(/\/+$/, '');
}

/**
 * The CDP address with a copy button, and a script per client (Playwright in JS and Python,
 * Puppeteer, curl, Simplex's two clients) filled with this server's address and this session.
 */
export function ConnectPanel({ connectUrl, sessionId }: { connectUrl: string; sessionId: string }) {
  const snippets = useMemo(
    () => connectSnippets({ apiBase: absoluteApiBase(), connectUrl, sessionId }),
    [connectUrl, sessionId],
  );
  const [tab, setTab] = useState<SnippetKey>('playwright-js');
  const id = useId();

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Connect with code</h2>
      <CopyableText label="connect_url" copyLabel="Copy connect_url" text={connectUrl} testId="connect-url" />
      <p className="hint">It drives this session&apos;s browser: keep it secret.</p>
      <TabList
        label="Client"
        idPrefix={id}
        tabs={snippets}
        selected={tab}
        onSelect={(key) => setTab(key)}
        className="tabs tabs-wrap"
        style={{ marginTop: '1rem' }}
      />
      {snippets.map((s) => (
        <TabPanel key={s.key} idPrefix={id} tabKey={s.key} selected={tab}>
          {s.install && (
            <p className="hint">
              Install: <code>{s.install}</code>
            </p>
          )}
          <CopyableText
            label={`${s.label} script`}
            copyLabel="Copy script"
            text={s.code}
            testId={`snippet-${s.key}`}
            code
          />
        </TabPanel>
      ))}
      <p className="hint">
        Scripts that call the API read the key from <code>{API_KEY_ENV}</code>; it is not shown here.
      </p>
    </section>
  );
}
