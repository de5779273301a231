import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type { EmbedOptions } from '../../../contract/viewer.ts';
import { readEmbedOptions } from './embedOptions.ts';

/** A visible explanation instead of a viewer when the query string holds a bad option. */
function BadOptions({ problems }: { problems: string[] }) {
  return (
    <main role="alert" style={{ font: '15px/1.5 system-ui, sans-serif', color: '#fff', padding: '1.5rem' }}>
      <h1 style={{ fontSize: '1.1rem', margin: '0 0 0.5rem' }}>This viewer link has invalid options</h1>
      <ul style={{ margin: 0, paddingLeft: '1.2rem' }}>
        {problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </main>
  );
}

/**
 * Mount a full-frame viewer page: options from the query string, accent and background applied
 * page-wide, no dashboard chrome. The stream is the page's own URL (same path, same token).
 */
export function mountEmbed(render: (options: EmbedOptions, url: string) => ReactNode): void {
  const result = readEmbedOptions(location.search);
  if (result.ok) {
    const { accent, background } = result.options;
    if (accent) document.documentElement.style.setProperty('--bd-accent', accent);
    if (background) {
      document.documentElement.style.setProperty('--bd-background', background);
      document.body.style.background = background;
    }
  }
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      {result.ok ? render(result.options, location.href) : <BadOptions problems={result.problems} />}
    </StrictMode>,
  );
}
