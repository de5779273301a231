import type { SessionClient } from '../../contract/sessionEvents.ts';
import type { SessionClients } from '../../contract/sessions.ts';
import type { Bus } from '../events/bus.ts';

/**
 * How many clients each of this node's sessions has now, counted from the bus's 'session.client'
 * (server/http/sessionClients.ts emits one when a client joins and one when it leaves): live-view
 * viewers (VNC, livestream) and CDP clients. Numbers only: no tokens, addresses or user agents.
 * A session whose clients have all gone is forgotten.
 */
export class SessionClientCounts {
  private readonly counts = new Map<string, Record<SessionClient, number>>();
  readonly stop: () => void;

  constructor(bus: Bus) {
    this.stop = bus.on('session.client', ({ session_id, client, joined }) => {
      const now = this.counts.get(session_id) ?? { cdp: 0, vnc: 0, livestream: 0 };
      now[client] = Math.max(0, now[client] + (joined ? 1 : -1));
      if (now.cdp + now.vnc + now.livestream === 0) this.counts.delete(session_id);
      else this.counts.set(session_id, now);
    });
  }

  of(sessionId: string): SessionClients {
    const now = this.counts.get(sessionId);
    return { viewers: (now?.vnc ?? 0) + (now?.livestream ?? 0), cdp: now?.cdp ?? 0 };
  }
}
