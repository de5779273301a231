import fs from 'node:fs';
import path from 'node:path';
import { agentToolInputs } from '../../contract/agentTools.ts';
import { isSafeFileName } from '../artifacts/safeNames.ts';
import { afterAction, ACTION_TIMEOUT_MS, onElement } from './input.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';
import { locateTarget } from './targets.ts';

/** Bytes of downloaded files one drop carries into the page (they cross the CDP connection). */
const DROP_FILES_MAX_BYTES = 10 * 1024 * 1024;

const MIME_BY_EXTENSION: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.zip': 'application/zip',
};

/** The session's kept downloads by name, read (the service's own folder) for a drop's DataTransfer. */
function droppedFiles(kit: ToolKit, sessionId: string, names: string[]) {
  let total = 0;
  return names.map((name) => {
    const file = isSafeFileName(name) ? kit.deps.keptFile(sessionId, name) : undefined;
    if (!file)
      throw new ToolError(
        `paths: ${JSON.stringify(name.slice(0, 100))} is not a file this session downloaded (downloads_list lists them by name); the server cannot read files of your machine`,
      );
    total += fs.statSync(file).size;
    if (total > DROP_FILES_MAX_BYTES)
      throw new ToolError(`paths: at most ${DROP_FILES_MAX_BYTES / 1024 / 1024} MB of files per drop`);
    const mimeType = MIME_BY_EXTENSION[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
    return { name, mimeType, buffer: fs.readFileSync(file) };
  });
}

/** browser_drag (one element onto another) and browser_drop (files or data from outside the page). */
export function dragDropTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_drag',
      description:
        'Drag one element onto another with the mouse. startTarget and endTarget are each a ref from the latest browser_snapshot or a CSS selector matching one element (startRef and endRef are the older names); startElement and endElement say them in words, for the session log.',
      input: agentToolInputs.browser_drag,
      async run({ session_id, startTarget, startRef, startElement, endTarget, endRef, endElement, snapshot }) {
        const page = await kit.browsers.page(session_id);
        const end = await locateTarget(kit, session_id, page, { target: endTarget, ref: endRef, element: endElement });
        const start = await onElement(
          kit,
          session_id,
          { target: startTarget, ref: startRef, element: startElement },
          (t) => t.dragTo(end.locator, { timeout: ACTION_TIMEOUT_MS }),
        );
        const what = `Dragged ${start.label} onto ${end.label}`;
        return afterAction(kit, session_id, what, `${what} (${start.given} → ${end.given})`, snapshot);
      },
    }),
    defineTool({
      name: 'browser_drop',
      description:
        'Drop files and/or data onto an element as if dragged in from outside the page (its dragenter, dragover and drop events, with a DataTransfer). target: a ref or a CSS selector matching one element. data: MIME type to text, e.g. {"text/plain": "hello"}. paths: names of files this session downloaded, as downloads_list lists them (at most 10 MB in all); never paths of your machine, which this server cannot read. An element whose dragover does not accept the drop (no preventDefault) is an error.',
      input: agentToolInputs.browser_drop,
      async run({ session_id, paths, data, snapshot, ...where }) {
        const files = paths ? droppedFiles(kit, session_id, paths) : undefined;
        const { label, given } = await onElement(kit, session_id, where, (t) =>
          t.drop({ ...(files ? { files } : {}), ...(data ? { data } : {}) }, { timeout: ACTION_TIMEOUT_MS }),
        );
        const parts = [
          ...(files
            ? [`${files.length} file${files.length === 1 ? '' : 's'} (${files.map((f) => f.name).join(', ')})`]
            : []),
          ...(data ? [`data of type ${Object.keys(data).join(', ')}`] : []),
        ];
        const what = `Dropped ${parts.join(' and ')} onto ${label}`;
        return afterAction(kit, session_id, what, `${what} (${given})`, snapshot);
      },
    }),
  ];
}
