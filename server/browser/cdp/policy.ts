import fs from 'node:fs';
import path from 'node:path';

/** The folders of one session that CDP commands may name on the host's file system. */
export interface SessionFolders {
  uploads: string;
  downloads: string;
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
 */
export function checkCommand(method: string, params: Record<string, unknown>, folders: SessionFolders): Verdict {
  if (REFUSED.has(method) || REFUSED_DOMAINS.some((d) => method.startsWith(d))) {
    return { ok: false, message: `${method} is not available on Browserdesk sessions` };
  }
  switch (method) {
    case 'Browser.setDownloadBehavior':
    case 'Page.setDownloadBehavior': {
      // Downloads always land in the session's own folder, whatever path the client asked for
      // (Playwright asks for a temp folder of its own machine; it then finds the file by its guid).
      const behavior = params.behavior;
      if (behavior === 'allow' || behavior === 'allowAndName') return { ok: true, params: { ...params, downloadPath: folders.downloads } };
      const { downloadPath: _ignored, ...rest } = params;
      return { ok: true, params: rest };
    }
    case 'DOM.setFileInputFiles':
      return filesAllowed(params.files, folders) ? { ok: true } : { ok: false, message: FILES_MESSAGE };
    case 'Input.dispatchDragEvent': {
      const files = (params.data as { files?: unknown } | undefined)?.files;
      return files === undefined || filesAllowed(files, folders) ? { ok: true } : { ok: false, message: FILES_MESSAGE };
    }
    default:
      return { ok: true };
  }
}
