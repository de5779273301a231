import type { FastifyInstance } from 'fastify';
import { announceCrashed } from '../browser/sessionManager.ts';
import { sessionsRepo } from '../store/sessions.ts';

/**
 * What a dead node held, taken over by whichever node notices first (each statement marks its rows
 * once, so each is told once): its unfinished runs fail with their webhooks, then its sessions
 * read crashed, with their session.ended webhooks and log entries. Its processes and files are
 * its own host's: it reaps them itself when it comes back (SessionManager.start).
 */
export async function reapDeadNodes(app: FastifyInstance, deadBefore: number): Promise<void> {
  const runs = await app.runs.failOfDeadNodes(deadBefore);
  const sessions = await sessionsRepo(app.db, app.config.nodeId).endCrashed({ deadBefore });
  announceCrashed(app.bus, sessions);
  if (runs || sessions.length) app.log.warn(`a node stopped answering: ${sessions.length} of its session(s) marked crashed, ${runs} of its run(s) failed`);
}
