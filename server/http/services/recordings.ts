import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { LiveSession } from '../../sessions/types.ts';
import { Recording, recordingFileOf } from '../../artifacts/recorder.ts';

export interface Recordings {
  /** What this server records (RECORD_SESSIONS). */
  readonly mode: Config['RECORD_SESSIONS'];
  /** The session's recording file when one was kept (also while it is still being recorded), else null. */
  fileOf(sessionId: string): string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    recordings: Recordings;
  }
}

/** Whether a session is recorded under RECORD_SESSIONS: every one, the sessions of runs, or none. */
export const shouldRecord = (mode: Config['RECORD_SESSIONS'], session: Pick<LiveSession, 'forRun'>) =>
  mode === 'all' || (mode === 'runs' && session.forRun === true);

function onPath(command: string): boolean {
  return (process.env.PATH ?? '/usr/bin:/bin').split(':').some((dir) => {
    try {
      fs.accessSync(path.join(dir, command), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * app.recordings: each recorded session's screen to MP4, from the moment it is live to its end.
 * ffmpeg is asked to finish while the browser is still up (beforeEnd); after a crash, which skips
 * beforeEnd, the manager's sweep of the tree does it (ffmpeg carries the tree's marker); afterEnd
 * waits until it is gone and the file is closed.
 */
export const recordingService = fp(
  async (app: FastifyInstance) => {
    const { dataDir, RECORD_SESSIONS: mode } = app.config;
    app.decorate('recordings', {
      mode,
      fileOf(sessionId: string): string | null {
        const file = recordingFileOf(dataDir, sessionId);
        try {
          return fs.statSync(file).size > 0 ? file : null;
        } catch {
          return null;
        }
      },
    } satisfies Recordings);
    if (mode === 'off') return;
    if (!onPath('ffmpeg')) {
      app.log.warn(
        `RECORD_SESSIONS=${mode} but ffmpeg is not installed: sessions are not recorded (run scripts/setup.sh)`,
      );
      return;
    }

    const recording = new Map<string, Recording>();
    const stop = async (id: string) => {
      const r = recording.get(id);
      if (!r) return;
      await r.stop();
      recording.delete(id);
    };
    app.sessions.addLifecycleHooks({
      onLive: (session, tree) => {
        if (!shouldRecord(mode, session)) return;
        const r = Recording.start({
          dataDir,
          sessionId: session.id,
          display: tree.display,
          xauthority: tree.xauthority,
          ipc: tree.ipc,
          user: session.user,
          onProblem: (message) => app.log.warn({ session_id: session.id }, `screen recording: ${message}`),
        });
        recording.set(session.id, r);
        // On every path, just before the tree is killed. A crash skips beforeEnd: the tree's sweep
        // then asks ffmpeg to finish (SIGTERM, one signal: a second one makes ffmpeg drop its last
        // fragment), and at normal priority it does so well within the sweep's grace.
        app.sessions.onEnd(session.id, () => r.hurry());
      },
      // The last frames while the display is still there; bounded by the manager's END_HOOK_TIMEOUT_MS.
      beforeEnd: (session) => stop(session.id),
      afterEnd: (id) => stop(id),
    });
    // Every session ends (with its hooks) before close; this only catches a recorder left by a bug.
    app.addHook('onClose', async () => {
      await Promise.all([...recording.keys()].map((id) => stop(id)));
    });
  },
  { name: 'recordings', dependencies: ['sessions'] },
);
