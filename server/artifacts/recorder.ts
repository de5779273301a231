import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sessionDirsOf } from '../sessions/isolation/sessionDirs.ts';
import type { SessionUser } from '../sessions/isolation/sessionUsers.ts';
import { renice, spawnDetached } from '../sessions/browser/processes.ts';
import { artifactsDirOf } from './paths.ts';
import { withinOr } from '../domain/within.ts';

/**
 * Encoder settings, measured on the 2-core host (bench/recording.ts and README, Screen recordings):
 * at 1280x720 most of the cost is converting each grabbed frame to yuv420p (about 4.5 ms of CPU a
 * frame; the grab itself 1 ms, x264 `ultrafast` 2 to 4 ms), paid whatever the page shows, so the
 * frame rate sets the price: 5 fps cost 3.6 % of a core, 10 fps 7.2 %, 15 fps 10.8 % on a still page.
 * `veryfast` took 40 % more CPU for files 40 % smaller; CRF 28 keeps text readable.
 * One keyframe every 2 s: each keyframe closes a fragment of the file, so a crash loses at most that
 * much, and a seek decodes at most 2 s of frames. Niceness 10: under contention the browser and the
 * live view come first, and the recording repeats frames rather than slowing them.
 */
export const RECORDING = { fps: 10, crf: 28, preset: 'ultrafast', keyframeSeconds: 2, niceness: 10 } as const;

/** A recording stops growing here (a session could feed its recorder bytes; see SECURITY.md). */
export const MAX_RECORDING_BYTES = 2 * 1024 ** 3;

/** A frames recording drops frames while this much waits for ffmpeg. */
const MAX_QUEUED_FRAME_BYTES = 4 * 1024 * 1024;

/** How long a stopping ffmpeg gets to write its last fragment before SIGKILL. */
export const STOP_GRACE_MS = 3_000;

/**
 * How long a stop waits for a recorder that has written nothing yet. ffmpeg writes its header once
 * the first grabbed frame reaches the encoder, 0.3 to 0.6 s after its start and more on a busy host
 * at niceness 10; asked to finish before that, it leaves no frame, and a short run's recording was
 * dropped. Within the lifecycle's beforeEnd bound (PHASE_BOUNDS_MS, 5 s) together with STOP_GRACE_MS.
 */
export const FIRST_FRAME_WAIT_MS = 2_000;

export const RECORDING_FILE = 'recording.mp4';

export const recordingFileOf = (dataDir: string, sessionId: string) =>
  path.join(artifactsDirOf(dataDir, sessionId), RECORDING_FILE);

/**
 * ffmpeg grabs the display and writes fragmented MP4 to its stdout: H.264 in yuv420p (what browsers
 * play), a moov up front and a self-contained fragment per keyframe, so the bytes written so far are
 * a playable file at any moment. No input or output but the display and the pipe: nothing listens.
 *
 * The grab's timestamps are wall-clock (-copyts keeps them) and the fps filter starts the video at
 * `startedAt`, repeating the first picture over ffmpeg's own start-up (0.3 to 0.6 s, more on a busy
 * host): second 0 of the video is the moment the session went live, as the session's log says.
 */
export function ffmpegArgs(display: string, startedAt: number): string[] {
  const { fps } = RECORDING;
  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    '-loglevel',
    'error',
    '-copyts',
    '-f',
    'x11grab',
    '-framerate',
    String(fps),
    '-draw_mouse',
    '1',
    '-i',
    display,
    '-vf',
    `fps=${fps}:start_time=${(startedAt / 1000).toFixed(3)}`,
    ...encoderArgs(),
  ];
}

/**
 * ffmpeg reads JPEG frames from its stdin (a screencast's, for a session with no display of its
 * own), stamped with the time each arrives, and writes the same MP4 as a display grab. Frames come
 * only when the page changes, at any size: each is fitted into `size` and the fps filter repeats
 * the last one to a steady rate.
 */
export function ffmpegFrameArgs(size: { width: number; height: number }): string[] {
  const { fps } = RECORDING;
  const { width: w, height: h } = size;
  return [
    '-hide_banner',
    '-nostats',
    '-loglevel',
    'error',
    // Start on the first frame: ffmpeg's default probe reads 5 MB of input (hundreds of frames) first.
    '-probesize',
    '32',
    '-analyzeduration',
    '0',
    '-use_wallclock_as_timestamps',
    '1',
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    '-i',
    'pipe:0',
    '-vf',
    `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,fps=${fps}`,
    ...encoderArgs(),
  ];
}

/** H.264 in fragmented MP4 on stdout, as RECORDING says. */
function encoderArgs(): string[] {
  const { fps, crf, preset, keyframeSeconds } = RECORDING;
  return [
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    preset,
    '-tune',
    'zerolatency',
    '-crf',
    String(crf),
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(fps * keyframeSeconds),
    '-threads',
    '1',
    '-f',
    'mp4',
    '-movflags',
    '+frag_keyframe+empty_moov+default_base_moof',
    '-flush_packets',
    '1',
    'pipe:1',
  ];
}

/** True when the MP4 holds one whole fragment (a `moof`, then its `mdat` to the end): frames, not just ffmpeg's header. Reads box headers only. */
export function hasFragment(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(16);
    let fragment = false;
    for (let at = 0; at + 8 <= size;) {
      fs.readSync(fd, head, 0, 16, at);
      const type = head.toString('latin1', 4, 8);
      let length = head.readUInt32BE(0);
      if (length === 1) length = Number(head.readBigUInt64BE(8));
      if (length < 8 || at + length > size) return false;
      if (type === 'moof') fragment = true;
      else if (type === 'mdat' && fragment) return true;
      at += length;
    }
    return false;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export interface RecordingOptions {
  dataDir: string;
  sessionId: string;
  /** The session's X display (":N") and its cookie file. */
  display: string;
  xauthority: string;
  /** ffmpeg runs as the session's user, like the rest of its tree, and in its IPC namespace (MIT-SHM with Xvfb). */
  user: SessionUser | null;
  ipc?: string;
  maxBytes?: number;
  onProblem?: (message: string) => void;
}

/**
 * One session's screen recording: ffmpeg as the session's user (its own process group, carrying the
 * session's tree marker, so the session's end and a restart's reaper both find it), its stdout
 * written by the service into DATA_DIR/artifacts/<session>/recording.mp4.
 */
export class Recording {
  readonly file: string;
  private bytes = 0;
  private stderr = '';
  private stopRequested = false;
  private hurried = false;
  private stopping: Promise<void> | undefined;
  private readonly finished: Promise<void>;
  /** Settles at ffmpeg's first bytes (its first frame is in the encoder), or when it is gone. */
  private readonly begun: Promise<void>;

  private constructor(
    private readonly opts: Pick<RecordingOptions, 'maxBytes' | 'onProblem'>,
    private readonly child: ChildProcess,
    file: string,
    out: fs.WriteStream,
    /** Wall-clock ms of second 0 of the video. */
    readonly startedAt: number,
  ) {
    this.file = file;
    const maxBytes = opts.maxBytes ?? MAX_RECORDING_BYTES;
    let begin = () => {};
    const begun = new Promise<void>((resolve) => (begin = resolve));
    const cap = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        begin();
        if (this.bytes + chunk.length > maxBytes) {
          if (!this.stopRequested) opts.onProblem?.(`the recording reached ${maxBytes} bytes and stops growing`);
          void this.stop();
          return done();
        }
        this.bytes += chunk.length;
        done(null, chunk);
      },
    });
    child.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-2000);
    });
    const written = pipeline(child.stdout!, cap, out).catch((err: unknown) =>
      opts.onProblem?.(`the recording was not written: ${(err as Error).message}`),
    );
    const exited = new Promise<void>((resolve) => {
      child.once('error', (err) => opts.onProblem?.(`ffmpeg did not start: ${err.message}`));
      child.once('close', (code, signal) => {
        // Asked to stop: 255 is ffmpeg's status after SIGINT, and Xvfb going first ends the grab with an error.
        if (!this.stopRequested && code !== 0)
          opts.onProblem?.(
            `ffmpeg ended on its own (${code ?? signal}): ${this.stderr.trim().slice(-500) || 'no message'}`,
          );
        resolve();
      });
    });
    this.finished = Promise.all([written, exited]).then(() => this.dropIfEmpty());
    this.begun = Promise.race([begun, exited]);
  }

  static start(opts: RecordingOptions): Recording {
    const file = recordingFileOf(opts.dataDir, opts.sessionId);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const out = fs.createWriteStream(file, { mode: 0o600 });
    const dirs = sessionDirsOf(opts.dataDir, opts.sessionId);
    const startedAt = Date.now();
    const child = spawnDetached(
      'ffmpeg',
      ffmpegArgs(opts.display, startedAt),
      {
        dataDir: opts.dataDir,
        treeId: opts.sessionId,
        display: opts.display,
        xauthority: opts.xauthority,
        home: dirs.home,
        tmp: dirs.tmp,
        user: opts.user,
        ...(opts.ipc ? { ipc: opts.ipc } : {}),
        niceness: RECORDING.niceness,
      },
      ['ignore', 'pipe', 'pipe'],
    );
    return new Recording(opts, child, file, out, startedAt);
  }

  /**
   * Record JPEG frames the service hands in (writeFrame) rather than a display: ffmpeg is the
   * service's child, at the recorder's niceness, reading its stdin, so it ends when the service does.
   */
  static startFromFrames(opts: {
    dataDir: string;
    sessionId: string;
    size: { width: number; height: number };
    maxBytes?: number;
    onProblem?: (message: string) => void;
  }): Recording {
    const file = recordingFileOf(opts.dataDir, opts.sessionId);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const out = fs.createWriteStream(file, { mode: 0o600 });
    // Nothing of the service's environment (its keys) reaches ffmpeg.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
    const child = spawn('nice', ['-n', String(RECORDING.niceness), 'ffmpeg', ...ffmpegFrameArgs(opts.size)], {
      env,
      cwd: path.dirname(file),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin!.on('error', () => {}); // ffmpeg gone: its exit says why
    return new Recording(opts, child, file, out, Date.now());
  }

  /** Hand a JPEG to a frames recording; dropped while ffmpeg is behind (live beats complete) or stopping. */
  writeFrame(jpeg: Buffer): void {
    const stdin = this.child.stdin;
    if (!stdin || this.stopRequested || !stdin.writable || stdin.writableLength > MAX_QUEUED_FRAME_BYTES) return;
    stdin.write(jpeg);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Bytes written to the file so far. */
  get size(): number {
    return this.bytes;
  }

  /**
   * Back to normal priority (root only; once). It records at a lower priority than the browser, but
   * its last fragment is written at the browser's, so ending a session on a busy host does not wait
   * on a starved ffmpeg, nor does the tree's sweep SIGKILL it before its file is finished.
   */
  hurry(): void {
    if (this.hurried || this.child.exitCode !== null || this.child.signalCode !== null || this.child.pid === undefined)
      return;
    this.hurried = true;
    renice([this.child.pid], RECORDING.niceness);
  }

  /**
   * Ask ffmpeg to finish (SIGINT: it writes its last fragment and the index) once it has written
   * anything (waiting up to FIRST_FRAME_WAIT_MS), SIGKILL `graceMs` after that, and resolve once it
   * is gone and the file is closed. Idempotent; safe after it died.
   */
  stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopRequested = true;
    this.stopping ??= (async () => {
      // Node reaps the child itself: while exitCode and signalCode are null the pid is still ours.
      const running = () =>
        this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined;
      if (running()) {
        this.hurry();
        this.child.stdin?.end(); // a frames recording: no more frames
        if (this.bytes === 0) {
          // Nothing written yet: let it reach its first frame (at the browser's priority now) rather than leave none.
          await withinOr(this.begun, FIRST_FRAME_WAIT_MS, undefined);
        }
        if (running()) this.child.kill('SIGINT');
      }
      const timer = setTimeout(() => {
        if (running()) this.child.kill('SIGKILL');
      }, graceMs);
      try {
        await this.finished;
      } finally {
        clearTimeout(timer);
      }
    })();
    return this.stopping;
  }

  /** Not one frame recorded (ffmpeg could not open the display, or is missing): no file, so no recording_url. */
  private dropIfEmpty(): void {
    if (this.bytes === 0 || !hasFragment(this.file)) fs.rmSync(this.file, { force: true });
  }
}
