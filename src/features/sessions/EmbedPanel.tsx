import { useId, useState } from 'react';
import { ScaleMode } from '../../../contract/viewer.ts';
import { CopyableText } from '../../components/CopyableText.tsx';
import { embedUrl, iframeSnippet, OPTIONS_OF, type EmbedChoices, type EmbedView } from './embed-url.ts';

const SCALE_LABELS: Record<ScaleMode, string> = {
  fit: 'Fit to the frame',
  none: 'None (1:1, scroll)',
};

const VIEW_LABELS: Record<EmbedView, { label: string; hint: string; title: string }> = {
  vnc: {
    label: 'Interactive viewer (vnc_url)',
    hint: 'noVNC: watch, and drive unless view only',
    title: 'Live browser',
  },
  live: {
    label: 'Livestream (livestream_url)',
    hint: 'frames only, never input; lightest on the server',
    title: 'Live browser (view only)',
  },
};

/** A colour option: off means the page's own default; on shows a colour picker. */
function ColourChoice({
  label,
  value,
  fallback,
  onChange,
}: {
  label: string;
  value?: string;
  fallback: string;
  onChange(v: string | undefined): void;
}) {
  const id = useId();
  return (
    <div className="row">
      <label className="check" style={{ margin: 0 }}>
        <input
          type="checkbox"
          checked={value !== undefined}
          onChange={(e) => onChange(e.target.checked ? fallback : undefined)}
        />{' '}
        {label}
      </label>
      {value !== undefined && (
        <>
          <label htmlFor={id} className="visually-hidden">
            {label} colour
          </label>
          <input id={id} type="color" value={value} onChange={(e) => onChange(e.target.value)} />
          <code>{value}</code>
        </>
      )}
    </div>
  );
}

/**
 * The white-label URLs of a live session, and a builder for embedding them: the embed options as
 * controls (EmbedOptions in contract/viewer.ts), the URL and `<iframe>` they make with copy
 * buttons, and a live preview of exactly that iframe.
 */
export function EmbedPanel({ vncUrl, livestreamUrl }: { vncUrl?: string; livestreamUrl?: string }) {
  const id = useId();
  const urls = { vnc_url: vncUrl, livestream_url: livestreamUrl };
  const [previewing, setPreviewing] = useState(false);
  const [choices, setChoices] = useState<EmbedChoices>({
    view: vncUrl ? 'vnc' : 'live',
    view_only: true,
    scale: 'fit',
  });
  const set = (patch: Partial<EmbedChoices>) => setChoices((c) => ({ ...c, ...patch }));
  const src = embedUrl(urls, choices);
  const reads = OPTIONS_OF[choices.view];
  const title = VIEW_LABELS[choices.view].title;
  const snippet = src ? iframeSnippet(src, title) : '';
  const views = (['vnc', 'live'] as const).filter((v) => urls[v === 'vnc' ? 'vnc_url' : 'livestream_url']);

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Embed</h2>
      <p className="hint">
        Put this session&apos;s browser in your own page, under your brand. Anyone with a URL below can watch the
        session (the interactive one can drive it) until it ends.
      </p>

      {vncUrl && <CopyableText label="vnc_url" copyLabel="Copy vnc_url" text={vncUrl} testId="embed-vnc_url" />}
      {livestreamUrl && (
        <CopyableText
          label="livestream_url"
          copyLabel="Copy livestream_url"
          text={livestreamUrl}
          testId="embed-livestream_url"
        />
      )}

      <fieldset className="embed-options">
        <legend>Options</legend>
        <div role="radiogroup" aria-label="Page to embed" className="row">
          {views.map((v) => (
            <label key={v} className="check" style={{ margin: 0 }}>
              <input
                type="radio"
                name={`${id}-view`}
                value={v}
                checked={choices.view === v}
                onChange={() => set({ view: v })}
              />
              {VIEW_LABELS[v].label}
            </label>
          ))}
        </div>
        <p className="hint">{VIEW_LABELS[choices.view].hint}.</p>
        {reads.includes('view_only') && (
          <label className="check">
            <input type="checkbox" checked={choices.view_only} onChange={(e) => set({ view_only: e.target.checked })} />{' '}
            View only (no keyboard or mouse reaches the browser; the URL carries a watch-only token)
          </label>
        )}
        {reads.includes('scale') && (
          <div className="row" style={{ marginBottom: '0.75rem' }}>
            <label htmlFor={`${id}-scale`}>Scale</label>
            <select
              id={`${id}-scale`}
              value={choices.scale}
              onChange={(e) => set({ scale: ScaleMode.parse(e.target.value) })}
              style={{ width: 'auto' }}
            >
              {ScaleMode.options.map((m) => (
                <option key={m} value={m}>
                  {SCALE_LABELS[m]}
                </option>
              ))}
            </select>
          </div>
        )}
        {reads.includes('accent') && (
          <ColourChoice
            label="Accent colour"
            value={choices.accent}
            fallback="#8ab4f8"
            onChange={(accent) => set({ accent })}
          />
        )}
        <ColourChoice
          label="Background colour"
          value={choices.background}
          fallback="#202124"
          onChange={(background) => set({ background })}
        />
      </fieldset>

      {src && (
        <>
          <CopyableText label="Embed URL" copyLabel="Copy URL" text={src} testId="embed-url" />
          <CopyableText label="HTML" copyLabel="Copy HTML" text={snippet} testId="embed-snippet" />
          {/* Closed until asked for: open, it is a second viewer of the session (a second VNC
              connection beside the live view above). */}
          <details className="embed-preview-box" onToggle={(e) => setPreviewing(e.currentTarget.open)}>
            <summary id={`${id}-preview-label`}>Preview</summary>
            {/* Keyed by the URL: a changed option loads the page anew, as a customer's page would. */}
            {previewing && (
              <iframe
                key={src}
                className="embed-preview"
                src={src}
                title={`Preview: ${title}`}
                aria-describedby={`${id}-preview-label`}
              />
            )}
          </details>
        </>
      )}
    </section>
  );
}
