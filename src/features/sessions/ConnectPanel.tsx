import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { loadSettings } from '../../api/settings.ts';
import { CopyableText } from '../../components/CopyableText.tsx';
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
  // The ARIA tabs pattern: arrows (wrapping), Home and End move focus together with the selection.
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const at = snippets.findIndex((s) => s.key === tab);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: snippets.length - 1 };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = snippets[(to + snippets.length) % snippets.length]!.key;
    setTab(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Connect with code</h2>
      <CopyableText label="connect_url" copyLabel="Copy connect_url" text={connectUrl} testId="connect-url" />
      <p className="hint">It drives this session&apos;s browser: keep it secret.</p>
      <div className="tabs tabs-wrap" role="tablist" aria-label="Client" style={{ marginTop: '1rem' }}>
        {snippets.map((s) => (
          <button
            key={s.key}
            type="button"
            role="tab"
            id={`${id}-tab-${s.key}`}
            aria-selected={tab === s.key}
            aria-controls={`${id}-panel-${s.key}`}
            tabIndex={tab === s.key ? 0 : -1}
            onClick={() => setTab(s.key)}
            onKeyDown={onTabKey}
          >
            {s.label}
          </button>
        ))}
      </div>
      {snippets.map((s) => (
        <div
          key={s.key}
          role="tabpanel"
          id={`${id}-panel-${s.key}`}
          aria-labelledby={`${id}-tab-${s.key}`}
          hidden={tab !== s.key}
        >
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
        </div>
      ))}
      <p className="hint">
        Scripts that call the API read the key from <code>{API_KEY_ENV}</code>; it is not shown here.
      </p>
    </section>
  );
}
