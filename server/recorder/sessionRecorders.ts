import type { RecorderState } from '../../contract/recorder.ts';
import type { SessionEventInput } from '../../contract/sessionEvents.ts';
import { Conflict, NotFound } from '../domain/errors.ts';
import type { Log } from '../log.ts';
import type { LiveSession } from '../sessions/types.ts';
import type { SessionPhases } from '../sessions/lifecycle.ts';
import { watchBrowser, type BrowserWatch } from './browserWatch.ts';
import { Recording } from './recording.ts';

/** Stopped recordings kept for GET and DELETE after their session ended (the oldest go first). */
const KEPT_STOPPED = 100;

interface Recorder {
  recording: Recording;
  watch?: BrowserWatch;
  /** Messages and navigations, one after another: a step's aria read finishes before the next is taken. */
  chain: Promise<void>;
  /** Stopped (or its session ended), perhaps while it was starting. */
  ended: boolean;
}

export interface SessionRecordersDeps {
  events: { append(sessionId: string, input: SessionEventInput): void };
  log: Log;
}

/**
 * The recorders of this node's live sessions (one each at most), and the flows of stopped ones.
 * A session's recorder stops when the session ends; its flow is still answered after.
 */
export class SessionRecorders {
  private readonly recorders = new Map<string, Recorder>();

  constructor(private readonly deps: SessionRecordersDeps) {}

  async start(session: LiveSession): Promise<RecorderState> {
    const id = session.id;
    if (this.recorders.get(id)?.recording.recording)
      throw new Conflict(
        `Session ${id} is already recording: read it with GET, or stop it with DELETE /api/sessions/${id}/recorder first`,
      );
    // Held before the first await: a second start at the same moment is the 409 above.
    const recorder: Recorder = {
      recording: new Recording('', '', () => undefined),
      chain: Promise.resolve(),
      ended: false,
    };
    this.recorders.delete(id);
    this.recorders.set(id, recorder);
    try {
      const watch = await watchBrowser(session.hub, {
        message: (payload, from) => {
          if (recorder.recording.admit(payload)) this.then(recorder, () => recorder.recording.build(payload, from));
        },
        navigated: (tab, url) => this.then(recorder, () => recorder.recording.navigated(tab, url)),
      });
      recorder.watch = watch;
      recorder.recording = new Recording(
        `Recording ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`,
        watch.mainTab,
        (step, index) =>
          this.deps.events.append(id, {
            event: 'RecorderStep',
            step: index + 1,
            recorded: step as Record<string, unknown>,
          }),
      );
      recorder.recording.begin(watch.mainUrl, watch.viewport);
      // The session ended while the recorder started: nothing more comes.
      if (recorder.ended) this.end(recorder);
      this.keepFew();
      return recorder.recording.state();
    } catch (err) {
      this.recorders.delete(id);
      this.deps.log.warn({ err, session_id: id }, 'the recorder did not start');
      throw new Conflict(`Session ${id}'s browser could not be recorded: it is ending, or its page does not answer`);
    }
  }

  state(sessionId: string): RecorderState {
    return this.of(sessionId).recording.state();
  }

  /** Stop (when recording) and answer the flow. */
  async stop(sessionId: string): Promise<RecorderState> {
    const recorder = this.of(sessionId);
    this.end(recorder);
    // What arrived before the stop is taken.
    await recorder.chain;
    return recorder.recording.state();
  }

  /** The session ends: its recorder stops, its flow stays to be read. */
  readonly phases: SessionPhases = {
    afterEnd: (id) => {
      const recorder = this.recorders.get(id);
      if (recorder) this.end(recorder);
    },
  };

  close(): void {
    for (const recorder of this.recorders.values()) this.end(recorder);
  }

  private end(recorder: Recorder): void {
    recorder.ended = true;
    recorder.watch?.stop();
    // Messages already in the chain are still taken (stop waits for them); none after.
    recorder.chain = recorder.chain.then(() => recorder.recording.stop());
  }

  private of(sessionId: string): Recorder {
    const recorder = this.recorders.get(sessionId);
    if (!recorder?.watch)
      throw new NotFound({
        message: `Session ${sessionId} has no recorder: start one with POST /api/sessions/${sessionId}/recorder while it is live`,
      });
    return recorder;
  }

  private then(recorder: Recorder, work: () => unknown): void {
    recorder.chain = recorder.chain
      .then(async () => void (await work()))
      .catch((err: unknown) => {
        this.deps.log.warn({ err }, 'a recorder message was not taken');
      });
  }

  /** Stopped recordings beyond KEPT_STOPPED go, oldest first. */
  private keepFew(): void {
    const stopped = [...this.recorders].filter(([, r]) => !r.recording.recording);
    for (const [id] of stopped.slice(0, Math.max(0, stopped.length - KEPT_STOPPED))) this.recorders.delete(id);
  }
}
