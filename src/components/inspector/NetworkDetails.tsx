import type { HarEntry } from '../../../contract/har.ts';
import { networkRowOf, requestBodyOf, responseBodyOf, type ShownBody } from './network-rows.ts';

function Headers({ title, headers }: { title: string; headers: HarEntry['request']['headers'] }) {
  return (
    <>
      <h5>{title}</h5>
      {headers.length === 0 ? (
        <p className="status">None recorded.</p>
      ) : (
        <dl className="network-headers">
          {headers.map((h, i) => (
            <div key={`${h.name}-${i}`}>
              <dt>{h.name}</dt>
              <dd>{h.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </>
  );
}

function Body({ title, body }: { title: string; body: ShownBody }) {
  return (
    <>
      <h5>{title}</h5>
      {body.note && <p className="hint">{body.note}</p>}
      {body.text !== null && (
        // Focusable: a long body scrolls in its own box, which the keyboard must reach.
        <pre className="scroll-block network-body" tabIndex={0} aria-label={title}>
          {body.text}
        </pre>
      )}
    </>
  );
}

/**
 * One request as the server kept it: its headers both ways (credential values already
 * "[redacted]" by the server) and its bodies (text only, already cut by the server).
 */
export function NetworkDetails({ entry, id }: { entry: HarEntry; id: string }) {
  const row = networkRowOf(entry);
  const requestBody = requestBodyOf(entry);
  const { response } = entry;
  return (
    <section id={id} className="network-details" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} className="wrap-anywhere">
        {row.method} {row.url}
      </h4>
      <p>
        {row.status === 'failed'
          ? `Failed: ${response._error ?? 'no answer'}`
          : `${response.status} ${response.statusText}`.trim()}
        {` · ${row.type} · ${row.time} · ${row.size}`}
        {response.redirectURL && <span className="wrap-anywhere">{` · redirected to ${response.redirectURL}`}</span>}
      </p>
      <Headers title="Request headers" headers={entry.request.headers} />
      {requestBody && <Body title="Request body" body={requestBody} />}
      <Headers title="Response headers" headers={response.headers} />
      <Body title="Response body" body={responseBodyOf(entry)} />
    </section>
  );
}
