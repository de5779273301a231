import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { formatBytes } from '../../lib/format.ts';

/** The log's filter: kinds of event a person looks for. */
export const EVENT_KINDS = {
  steps: {
    label: 'Steps',
    events: [
      'AgentToolCall',
      'RunQueued',
      'RunStarting',
      'RunStarted',
      'ToolCallStarted',
      'ToolCallCompleted',
      'Dialog',
      'RunContent',
      'FlowPaused',
      'FlowResumed',
      'RunCompleted',
      'RunError',
      'StepHealed',
    ],
  },
  agent: {
    label: 'Agent',
    events: ['NewMessage', 'AgentRunning', 'AskUserQuestion', 'StepRecorded', 'RunContent', 'RunCompleted', 'RunError'],
  },
  navigation: { label: 'Navigations', events: ['Navigated'] },
  console: { label: 'Console', events: ['ConsoleMessage'] },
  network: { label: 'Network', events: ['NetworkRequest'] },
  errors: { label: 'Errors', events: ['PageError', 'RunError'] },
  downloads: { label: 'Downloads', events: ['Download'] },
  clients: { label: 'Clients and viewers', events: ['ClientConnected', 'ClientDisconnected'] },
  session: { label: 'Session', events: ['SessionStarted', 'ProfileSaved', 'NodeDraining', 'SessionEnded'] },
  recorder: { label: 'Recorder', events: ['RecorderStep'] },
} as const satisfies Record<string, { label: string; events: readonly SessionEvent['event'][] }>;
export type EventKind = keyof typeof EVENT_KINDS;

export function kindMatches(kind: EventKind | 'all', e: SessionEvent): boolean {
  return kind === 'all' || (EVENT_KINDS[kind].events as readonly string[]).includes(e.event);
}

/** Events worth a place on the timeline beside the video: where something happened. */
export function onTimeline(e: SessionEvent): boolean {
  return [
    'ToolCallCompleted',
    'AgentToolCall',
    'Dialog',
    'Navigated',
    'Download',
    'PageError',
    'FlowPaused',
    'FlowResumed',
    'RunCompleted',
    'RunError',
    'SessionEnded',
  ].includes(e.event);
}

/** How the session's run ended, read from its whole log: what its later lines are said with. */
export interface RunEnd {
  outcome: 'succeeded' | 'failed';
  /** The step it failed at (from 1), when it failed at one. */
  failedStep?: number;
}

/** The run's end in `log` (a workflow run's, not the agent's turns), if it has ended. */
export function runEndOf(log: readonly SessionEvent[]): RunEnd | undefined {
  let end: RunEnd | undefined;
  let lastFailed: number | undefined;
  for (const e of log) {
    if (e.event === 'ToolCallCompleted' && !e.agent) lastFailed = e.result.ok ? undefined : e.step;
    else if (e.event === 'RunCompleted' && !e.agent) end = { outcome: 'succeeded' };
    else if (e.event === 'RunError' && !e.agent)
      end = { outcome: 'failed', ...(lastFailed !== undefined ? { failedStep: lastFailed } : {}) };
  }
  return end;
}

const CLIENT = { cdp: 'A CDP client', vnc: 'A live-view viewer (VNC)', livestream: 'A livestream viewer' } as const;

/**
 * One line saying what the event was, for people. With the log's `runEnd`, a failed step leaves
 * its why to the run's end (our message, not also the browser library's), and the session's end
 * "completed" says how its run ended.
 */
export function describeEvent(e: SessionEvent, runEnd?: RunEnd): string {
  switch (e.event) {
    case 'SessionStarted':
      return 'Session started';
    case 'SessionEnded':
      if (e.reason === 'completed' && runEnd)
        return `Session ended: its run ${runEnd.outcome}${runEnd.failedStep ? ` at step ${runEnd.failedStep}` : ''}`;
      return `Session ended (${e.reason.replace(/_/g, ' ')})`;
    case 'RunQueued':
      return `Queued at position ${e.position}: waiting for a browser`;
    case 'RunStarting':
      return 'Starting the browser';
    case 'RunStarted':
      return e.total_actions === null ? 'Agent started on a message' : `Run started: ${e.total_actions} steps`;
    case 'ToolCallStarted':
      return `Step ${e.step} (${e.action}) started`;
    case 'ToolCallCompleted':
      if (e.result.ok) return `Step ${e.step} (${e.action}) done in ${e.duration} ms`;
      if (!e.agent && runEnd?.failedStep === e.step) return `Step ${e.step} (${e.action}) failed`;
      return `Step ${e.step} (${e.action}) failed: ${e.result.error ?? 'no reason given'}`;
    case 'RunContent':
      return e.outputs ? `Outputs: ${Object.keys(e.outputs).join(', ')}` : `Agent: ${e.content}`;
    case 'Dialog':
      return `The page opened ${e.dialog_type === 'alert' ? 'an' : 'a'} ${e.dialog_type}${e.message ? `: "${e.message}"` : ''} (${e.answer})`;
    case 'FlowPaused':
      return e.message ? `Paused: ${e.message}` : 'Paused through the API';
    case 'FlowResumed':
      return e.answer !== undefined ? `Resumed with the answer: ${e.answer}` : 'Resumed';
    case 'RunCompleted':
      return e.agent ? `Agent done: ${e.message}` : `Run succeeded: ${e.message}`;
    case 'RunError':
      return e.agent ? `Agent stopped: ${e.message}` : `Run failed: ${e.message}`;
    case 'NewMessage':
      return `Message to the agent: ${e.content}`;
    case 'AgentRunning':
      return e.content === 'true' ? 'The agent is working' : 'The agent is waiting for a message';
    case 'AskUserQuestion':
      return `The agent asks: ${e.content}`;
    case 'StepRecorded':
      return `Recorded step ${e.step} (${String(e.recorded.type === 'customStep' ? e.recorded.name : e.recorded.type)})`;
    case 'RecorderStep':
      return `Recorder: step ${e.step} (${String(e.recorded.type === 'customStep' ? e.recorded.name : e.recorded.type)})`;
    case 'StepHealed':
      return `Step ${e.step} (${e.action}) healed: its selectors matched nothing, the model found the element`;
    case 'Navigated':
      return `Went to ${e.url}`;
    case 'ConsoleMessage':
      // CDP calls console.warn's level "warning": shown as the call a developer wrote.
      return `console.${e.level === 'warning' ? 'warn' : e.level}: ${e.text}`;
    case 'PageError':
      return `Page error: ${e.text}`;
    case 'NetworkRequest': {
      const outcome = e.failed ? `failed: ${e.failed}` : `${e.status ?? '—'}`;
      const untold = e.unlogged ? ` (${e.unlogged} requests before it not logged)` : '';
      const size = e.size !== undefined ? `, ${formatBytes(e.size)}` : '';
      return `${e.method} ${e.url} → ${outcome} (${e.type}, ${Math.round(e.duration)} ms${size})${untold}`;
    }
    case 'Download':
      return e.ok
        ? `Downloaded ${e.filename} (${formatBytes(e.file_size)})`
        : `Download of ${e.filename} stopped: ${e.reason ?? 'failed'}`;
    case 'AgentToolCall':
      return e.ok ? `Agent: ${e.tool}: ${e.message}` : `Agent: ${e.tool} failed: ${e.message}`;
    case 'ClientConnected':
      return `${CLIENT[e.client]} joined`;
    case 'ClientDisconnected':
      return `${CLIENT[e.client]} left`;
    case 'ProfileSaved':
      if (!e.saved) return `Profile ${e.profile} not saved: ${e.reason ?? 'no reason given'}`;
      return `Saved to profile ${e.profile} (version ${e.version}${e.size === null ? '' : `, ${formatBytes(e.size)}`})`;
    case 'NodeDraining':
      return e.message;
  }
}

/** Whether the event reports something that went wrong (shown as an error). */
export const isProblem = (e: SessionEvent) =>
  e.event === 'PageError' ||
  e.event === 'RunError' ||
  (e.event === 'ToolCallCompleted' && !e.result.ok) ||
  (e.event === 'AgentToolCall' && !e.ok) ||
  (e.event === 'Download' && !e.ok) ||
  (e.event === 'NetworkRequest' && (e.failed !== undefined || (e.status ?? 0) >= 400)) ||
  (e.event === 'ProfileSaved' && !e.saved);
