import { Suspense } from 'react';
import type { SessionIsolation } from '../../contract/isolation.ts';
import type { ScaleMode } from '../../contract/viewer.ts';
import { LazyScreencastViewer, LazyVncViewer } from './LazyViewers.tsx';

/**
 * A session's vnc_url view: noVNC for a session with its own display, the screencast viewer for a
 * context session (whose vnc_url is a screencast of its own pages); nothing until its kind is known,
 * so neither speaks to the other's stream.
 */
export function SessionScreen({
  isolation,
  url,
  viewOnly = false,
  scale = 'fit',
  label,
  className,
  connectingText,
}: {
  isolation: SessionIsolation | undefined;
  url: string;
  viewOnly?: boolean;
  scale?: ScaleMode;
  label: string;
  className?: string;
  connectingText?: string;
}) {
  const loading = <p className="status">Loading the viewer…</p>;
  if (!isolation) return loading;
  return (
    <Suspense fallback={loading}>
      {isolation === 'context' ? (
        <LazyScreencastViewer
          url={url}
          viewOnly={viewOnly}
          className={className}
          label={label}
          connectingText={connectingText}
        />
      ) : (
        <LazyVncViewer
          url={url}
          viewOnly={viewOnly}
          scale={scale}
          className={className}
          label={label}
          connectingText={connectingText}
        />
      )}
    </Suspense>
  );
}
