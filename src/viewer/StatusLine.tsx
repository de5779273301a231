import { describe, type ConnectionStatus } from './connection.ts';

/**
 * The viewer's state in words, announced politely to screen readers. It fades once connected
 * (still read out) so it never covers the remote screen.
 */
export function StatusLine({ status, connectingText }: { status: ConnectionStatus; connectingText?: string }) {
  return (
    <p className="bd-viewer__status" role="status" aria-live="polite" data-state={status.state}>
      {(status.state === 'connecting' && connectingText) || describe(status)}
    </p>
  );
}
