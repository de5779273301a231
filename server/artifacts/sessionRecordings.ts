import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Log } from '../log.ts';
import type { SessionPhases } from '../sessions/lifecycle.ts';
import type { LiveSession, SessionManager } from '../sessions/types.ts';
import { Recording, recordingFileOf } from './recorder.ts';
import { ScreencastRecording, type SessionRecording } from './screencastRecording.ts';

/** Whether a session is recorded under RECORD_SESSIONS: every one, the sessions of runs, or none. */
const shouldRecord = (mode: Config['RECORD_SESSIONS'], session: Pick<LiveSession, 'forRun'>) =>
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
 * Each recorded session's screen to MP4, from the moment it is live to its end. ffmpeg is asked to
 * finish while the browser is still up (beforeEnd); after a crash, which skips beforeEnd, the
 * manager's sweep of the tree does it (ffmpeg carries the tree's marker); afterEnd waits until it
 * is gone and the file is closed.
 */
export class SessionRecordings {
  /** What this server records (RECORD_SESSIONS). */
  readonly mode: Config['RECORD_SESSIONS'];
  private readonly recording = new Map<string, SessionRecording>();
  /** Its part in each session's lifecycle (services.ts subscribes it): none when nothing is recorded. */
  readonly phases: SessionPhases = {};

  constructor(private readonly deps: { config: Config; sessions: Pick<SessionManager, 'onEnd'>; log: Log }) {
    this.mode = deps.config.RECORD_SESSIONS;
    if (this.mode === 'off') return;
    if (!onPath('ffmpeg')) {
      deps.log.warn(
        `RECORD_SESSIONS=${this.mode} but ffmpeg is not installed: sessions are not recorded (run scripts/setup.sh)`,
      );
      return;
    }
    this.phases = {
      live: (session, tree) => {
        if (!shouldRecord(this.mode, session)) return;
        const onProblem = (message: string) =>
          deps.log.warn({ session_id: session.id }, `screen recording: ${message}`);
        // No display of its own (a context session, whose display is shared with other sessions): its
        // display is never grabbed, which would record other sessions' windows; its own pages' screencast is.
        const r: SessionRecording =
          !tree || session.isolation === 'context'
            ? new ScreencastRecording(session.hub, { dataDir: deps.config.dataDir, sessionId: session.id, onProblem })
            : Recording.start({
                dataDir: deps.config.dataDir,
                sessionId: session.id,
                display: tree.display,
                xauthority: tree.xauthority,
                ipc: tree.ipc,
                user: session.user,
                onProblem,
              });
        this.recording.set(session.id, r);
        // On every path, just before the tree is killed. A crash skips beforeEnd: the tree's sweep
        // then asks ffmpeg to finish (SIGTERM, one signal: a second one makes ffmpeg drop its last
        // fragment), and at normal priority it does so well within the sweep's grace.
        deps.sessions.onEnd(session.id, () => r.hurry());
      },
      // The last frames while the display is still there; bounded by the lifecycle's beforeEnd (PHASE_BOUNDS_MS).
      beforeEnd: (session) => this.stop(session.id),
      afterEnd: (id) => this.stop(id),
    };
  }

  /** The session's recording file when one was kept (also while it is still being recorded), else null. */
  fileOf(sessionId: string): string | null {
    const file = recordingFileOf(this.deps.config.dataDir, sessionId);
    try {
      return fs.statSync(file).size > 0 ? file : null;
    } catch {
      return null;
    }
  }

  /** Every session ends (with its hooks) before this; it only catches a recorder left by a bug. */
  async close(): Promise<void> {
    await Promise.all([...this.recording.keys()].map((id) => this.stop(id)));
  }

  private async stop(id: string): Promise<void> {
    const r = this.recording.get(id);
    if (!r) return;
    await r.stop();
    this.recording.delete(id);
  }
}
