import { useServerInfo } from '../../api/meta/get-server-info.ts';
import { LoadStatus } from './LoadStatus.tsx';

const yesNo = (configured: boolean, yes: string, no: string) => (configured ? yes : no);

/** What the server says of itself (GET /server_info): its version and what its operator configured. */
export function ServerFactsSection({ connected }: { connected: boolean }) {
  const info = useServerInfo(connected);
  return (
    <section className="card" aria-labelledby="server-facts-title">
      <h2 id="server-facts-title">This server</h2>
      <LoadStatus
        connected={connected}
        query={info}
        needsKeyTo="see what this server offers"
        loading="Loading…"
        failed="Could not read the server's facts."
      />
      {info.data && (
        <dl className="facts">
          <dt>Version</dt>
          <dd>{info.data.version}</dd>
          <dt>Writing model</dt>
          <dd>
            {yesNo(
              info.data.writer_configured,
              'Configured',
              'Not configured: the Writer and the agent answer 503 until MODEL_NAME and MODEL_BASE_URL (or MODEL_PROVIDER and MODEL_API_KEY) are set.',
            )}
          </dd>
          <dt>Proxy</dt>
          <dd>
            {yesNo(
              info.data.proxy_configured,
              'Configured: sessions may use proxies.',
              'Not configured: sessions go out directly (set PROXY_URL to offer proxies).',
            )}
          </dd>
          <dt>Sessions at once</dt>
          <dd>At most {info.data.max_sessions}</dd>
        </dl>
      )}
    </section>
  );
}
