import type { Bus } from '../events/bus.ts';
import type { SessionEventLog } from './log.ts';

/** Record domain events in each session's log (contract/sessionEvents.ts). Steps are numbered from 1. Returns the unsubscribe. */
export function recordBusEvents(bus: Bus, log: SessionEventLog): () => void {
  const offs = [
    bus.on('session.started', (e) => log.append(e.session_id, { event: 'SessionStarted', workflow_id: e.workflow_id })),
    bus.on('run.queued', (e) =>
      log.append(e.session_id, { event: 'RunQueued', workflow_id: e.workflow_id, position: e.position }),
    ),
    bus.on('run.starting', (e) => log.append(e.session_id, { event: 'RunStarting', phase: e.phase })),
    bus.on('run.started', (e) =>
      log.append(e.session_id, { event: 'RunStarted', workflow_id: e.workflow_id, total_actions: e.total_actions }),
    ),
    bus.on('run.stepStarted', (e) =>
      log.append(e.session_id, { event: 'ToolCallStarted', step: e.index + 1, action: e.action, params: e.params }),
    ),
    bus.on('run.step', (e) => {
      if (!e.result) return;
      log.append(e.session_id, {
        event: 'ToolCallCompleted',
        step: e.index + 1,
        action: e.result.action,
        result: e.result.result,
        duration: e.result.duration,
      });
      if (e.result.result.output !== undefined && e.outputs)
        log.append(e.session_id, { event: 'RunContent', outputs: e.outputs });
    }),
    bus.on('run.dialog', (e) =>
      log.append(e.session_id, { event: 'Dialog', dialog_type: e.type, message: e.message, answer: e.answer }),
    ),
    bus.on('run.paused', (e) =>
      log.append(e.session_id, {
        event: 'FlowPaused',
        pause_key: e.pause.key,
        pause_type: e.pause.type,
        message: e.pause.message,
      }),
    ),
    bus.on('run.resumed', (e) =>
      log.append(e.session_id, {
        event: 'FlowResumed',
        pause_key: e.pause.key,
        pause_type: e.pause.type,
        ...(e.answer !== undefined ? { answer: e.answer } : {}),
      }),
    ),
    bus.on('run.completed', (e) =>
      log.append(e.session_id, {
        event: e.succeeded ? 'RunCompleted' : 'RunError',
        message: e.message,
        outputs: e.outputs,
      }),
    ),
    bus.on('session.ended', (e) => log.append(e.session_id, { event: 'SessionEnded', reason: e.reason })),
    bus.on('session.profileSaved', (e) =>
      log.append(e.session_id, {
        event: 'ProfileSaved',
        profile: e.profile,
        saved: e.version !== null,
        version: e.version,
        size: e.size,
        ...(e.reason ? { reason: e.reason } : {}),
      }),
    ),
    bus.on('session.download', (e) =>
      log.append(e.session_id, {
        event: 'Download',
        filename: e.filename,
        file_size: e.file_size,
        ok: e.ok,
        ...(e.reason ? { reason: e.reason } : {}),
      }),
    ),
    bus.on('session.client', (e) =>
      log.append(e.session_id, { event: e.joined ? 'ClientConnected' : 'ClientDisconnected', client: e.client }),
    ),
    bus.on('session.page', (e) => {
      if (e.kind === 'navigated') log.append(e.session_id, { event: 'Navigated', url: e.url });
      else if (e.kind === 'console')
        log.append(e.session_id, { event: 'ConsoleMessage', level: e.level, text: e.text });
      else if (e.kind === 'request') {
        const { kind: _kind, session_id, ...request } = e;
        log.append(session_id, { event: 'NetworkRequest', ...request });
      } else log.append(e.session_id, { event: 'PageError', text: e.text });
    }),
  ];
  return () => offs.forEach((off) => off());
}
