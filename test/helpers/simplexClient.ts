import type { SimplexClient, SessionStatusResponse } from 'simplex-ts';
import { SessionStatus } from '../../contract/runControl.ts';

/** Poll with Simplex's client until the session is no longer in progress; every answer is checked against the contract. */
export async function untilDone(
  client: SimplexClient,
  sessionId: string,
  seen: SessionStatusResponse[] = [],
): Promise<SessionStatusResponse> {
  for (;;) {
    const status = await client.getSessionStatus(sessionId);
    SessionStatus.parse(status);
    seen.push(status);
    if (!status.in_progress) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}
