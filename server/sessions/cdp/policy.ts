import fs from 'node:fs';
import path from 'node:path';
import { MAX_CDP_WRAPPING } from '../../../contract/cdp.ts';
import { parseCommand } from './parseCommand.ts';

/** The folders of one session that CDP commands may name on the host's file system. */
export interface SessionFolders {
  uploads: string;
  downloads: string;
}

/** What the policy knows of the connection a command came on. */
export interface PolicyContext {
  folders: SessionFolders;
  /** True for the target sessions this connection attached itself: the only ones it may name. */
  owns: (sessionId: string) => boolean;
}

export type Verdict = { ok: true; params?: Record<string, unknown> } | { ok: false; message: string };

/**
 * Commands no consumer of a session may send: each reaches past the session's browser (a page
 * given the protocol itself bypasses this policy; remote locations make the browser dial out to
 * debug targets; extensions load code from a host path).
 */
const REFUSED = new Set(['Target.exposeDevToolsProtocol', 'Target.setRemoteLocations']);
const REFUSED_DOMAINS = ['Extensions.'];

/** True when `file` (after resolving links) lies inside one of `folders`. */
function inside(file: unknown, folders: string[]): boolean {
  if (typeof file !== 'string' || !path.isAbsolute(file) || file.includes('\0')) return false;
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return false;
  }
  return folders.some((dir) => real.startsWith(`${fs.realpathSync(dir)}${path.sep}`));
}

function filesAllowed(files: unknown, folders: SessionFolders): boolean {
  return Array.isArray(files) && files.every((f) => inside(f, [folders.uploads, folders.downloads]));
}

const FILES_MESSAGE = "Only files in this session's uploads or downloads folder can be given to the page";

/**
 * The session's policy over one CDP command: refuse it, pass it, or pass it with its parameters
 * rewritten. The browser's user can read only its own folders anyway (it runs as the session's own
 * user); this keeps the service's root privileges from being lent through paths in commands.
 * A command wrapped in Target.sendMessageToTarget (non-flat sessions) meets the same policy: it is
 * unwrapped, checked, and wrapped again with what the policy rewrote.
 */
export function checkCommand(
  method: string,
  params: Record<string, unknown>,
  ctx: PolicyContext,
  wrapping = 0,
): Verdict {
  if (REFUSED.has(method) || REFUSED_DOMAINS.some((d) => method.startsWith(d))) {
    return { ok: false, message: `${method} is not available on Browserdesk sessions` };
  }
  switch (method) {
    case 'Browser.setDownloadBehavior':
    case 'Page.setDownloadBehavior': {
      // Downloads always land in the session's own folder, whatever path the client asked for
      // (Playwright asks for a temp folder of its own machine; it then finds the file by its guid).
      const behavior = params.behavior;
      if (behavior === 'allow' || behavior === 'allowAndName')
        return { ok: true, params: { ...params, downloadPath: ctx.folders.downloads } };
      const { downloadPath: _ignored, ...rest } = params;
      return { ok: true, params: rest };
    }
    case 'Emulation.setAutomationOverride':
      // @puppeteer/replay sends { enabled: true } before every step of a run. Chromium answers by
      // adding "Chrome is being controlled by automated test software" over the page: browser UI
      // that no screencast shows but the live view, a paused run's viewer and the recording do.
      // Passed on as false: the client still gets its answer, and no bar covers the page.
      return { ok: true, params: { ...params, enabled: false } };
    case 'DOM.setFileInputFiles':
      return filesAllowed(params.files, ctx.folders) ? { ok: true } : { ok: false, message: FILES_MESSAGE };
    case 'Input.dispatchDragEvent': {
      const files = (params.data as { files?: unknown } | undefined)?.files;
      return files === undefined || filesAllowed(files, ctx.folders)
        ? { ok: true }
        : { ok: false, message: FILES_MESSAGE };
    }
    case 'Target.detachFromTarget':
      // By sessionId only: a targetId would detach whichever sessions the target has, other connections' too.
      return ownedSession(params, ctx);
    case 'Target.sendMessageToTarget':
      return wrapped(params, ctx, wrapping);
    default:
      return { ok: true };
  }
}

function ownedSession(params: Record<string, unknown>, ctx: PolicyContext): Verdict {
  const sessionId = params.sessionId;
  if (typeof sessionId !== 'string')
    return { ok: false, message: 'Name the target session by sessionId (targetId alone is not accepted)' };
  if (!ctx.owns(sessionId)) return { ok: false, message: 'Session with given id not found.' };
  return { ok: true };
}

function wrapped(params: Record<string, unknown>, ctx: PolicyContext, wrapping: number): Verdict {
  const owner = ownedSession(params, ctx);
  if (!owner.ok) return owner;
  if (wrapping >= MAX_CDP_WRAPPING)
    return { ok: false, message: `Target.sendMessageToTarget may wrap at most ${MAX_CDP_WRAPPING} levels` };
  if (typeof params.message !== 'string')
    return { ok: false, message: 'Target.sendMessageToTarget needs a message string' };
  const inner = parseCommand(params.message);
  if (!inner.ok) return { ok: false, message: `The wrapped message: ${inner.message}` };
  const { id, method, params: innerParams = {}, sessionId } = inner.command;
  if (sessionId !== undefined && !ctx.owns(sessionId))
    return { ok: false, message: 'Session with given id not found.' };
  const verdict = checkCommand(method, innerParams, ctx, wrapping + 1);
  if (!verdict.ok) return verdict;
  // Always sent on as re-serialised from what was checked, never as the client's own text.
  const message = JSON.stringify({
    id,
    method,
    params: verdict.params ?? innerParams,
    ...(sessionId !== undefined ? { sessionId } : {}),
  });
  return { ok: true, params: { sessionId: params.sessionId, message } };
}
