import type { ConnectionStatus } from './connection.ts';

/**
 * The attributes of a live view's outer region (its ref aside), the same for the VNC and the screencast viewer: a
 * labelled region that takes focus from script only (the screen inside is the Tab stop), and says
 * its state and whether it can drive for styles and tests.
 */
export function viewerRegionProps(opts: {
  className?: string;
  background?: string;
  label: string;
  status: ConnectionStatus;
  viewOnly: boolean;
}) {
  return {
    tabIndex: -1,
    className: `bd-viewer${opts.className ? ` ${opts.className}` : ''}`,
    style: opts.background ? { background: opts.background } : undefined,
    role: 'region',
    'aria-label': opts.label,
    'data-state': opts.status.state,
    'data-view-only': opts.viewOnly ? 'true' : 'false',
  } as const;
}
