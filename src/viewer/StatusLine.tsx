import { describe, type ConnectionStatus } from './connection.ts';

/**
 * The viewer's state in words, announced politely to screen readers. It fades once connected
 * (still read out) so it never covers the remote screen.
 */
export function StatusLine({ status }: { status: ConnectionStatus }) {
  return (
    <p className="bd-viewer__status" role="status" aria-live="polite" data-state={status.state}>
      {describe(status)}
    </p>
  );
}
