import type { SessionEvent } from '../../../contract/sessionEvents.ts';

/**
 * The stretch of a run before its steps do anything a person sees: waiting in the queue, the
 * browser starting, the run connecting to it, the first page loading. On a busy host it takes
 * many seconds, so the run page names each part as it happens instead of "0 steps done".
 */
export type StartPhaseKey = 'queued' | 'browser' | 'connecting' | 'first-page';

export interface StartPhase {
  key: StartPhaseKey;
  /** While it goes on: "Starting the browser". */
  doing: string;
  /** Once over: "Browser started". */
  done: string;
  /** When it began and ended (ms since the epoch, the server's clock); until null: under way. */
  since: number;
  until: number | null;
}

export interface RunStart {
  phases: StartPhase[];
  /** The first page is open (or a step past it began, or the run ended): the steps take over. */
  over: boolean;
}

/** Steps that set the stage before the first page (Chrome's Recorder begins each flow with a setViewport). */
const STAGE_SETTING = new Set(['setViewport']);

/** The run's start, read from its session's events in order. */
export function runStart(events: readonly SessionEvent[]): RunStart {
  const phases: StartPhase[] = [];
  const at = (e: SessionEvent) => Date.parse(e.created_at);
  const close = (t: number) => {
    const current = phases.at(-1);
    if (current && current.until === null) current.until = t;
  };
  const begin = (phase: Omit<StartPhase, 'until'>) => {
    close(phase.since);
    phases.push({ ...phase, until: null });
  };
  for (const e of events) {
    switch (e.event) {
      case 'RunQueued':
        begin({
          key: 'queued',
          doing: `Queued at position ${e.position}: waiting for a browser to free`,
          done: 'Waited for a browser',
          since: at(e),
        });
        break;
      case 'RunStarting':
        begin({ key: 'browser', doing: 'Starting the browser', done: 'Browser started', since: at(e) });
        break;
      case 'SessionStarted':
        // A run not queued had its browser started before its page opened: a phase already over.
        if (!phases.some((p) => p.key === 'browser'))
          begin({ key: 'browser', doing: 'Starting the browser', done: 'Browser started', since: at(e) });
        close(at(e));
        break;
      case 'RunStarted':
        begin({
          key: 'connecting',
          doing: 'Connecting the run to the browser',
          done: 'Run connected to the browser',
          since: at(e),
        });
        break;
      case 'ToolCallStarted':
        if (e.action === 'navigate' && !phases.some((p) => p.key === 'first-page')) {
          const url = typeof e.params.url === 'string' ? e.params.url : 'the first page';
          begin({ key: 'first-page', doing: `Opening ${url}`, done: `Opened ${url}`, since: at(e) });
        } else if (!STAGE_SETTING.has(e.action)) {
          close(at(e));
          return { phases, over: true };
        }
        break;
      case 'ToolCallCompleted':
        if (phases.at(-1)?.key === 'first-page') {
          close(at(e));
          return { phases, over: true };
        }
        break;
      case 'RunCompleted':
      case 'RunError':
      case 'SessionEnded':
        close(at(e));
        return { phases, over: true };
      default:
        break;
    }
  }
  return { phases, over: false };
}
