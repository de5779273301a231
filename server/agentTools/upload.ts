import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { agentToolInputs } from '../../contract/agentTools.ts';
import { isSafeFileName } from '../artifacts/safeNames.ts';
import type { ToolKit } from './kit.ts';
import { afterAction, ACTION_TIMEOUT_MS } from './input.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';
import { writeAsSessionUser } from './sessionFiles.ts';

const quoted = (element: string) => JSON.stringify(element.slice(0, 100));

/**
 * browser_file_upload: the agent's files go into the session's own uploads folder, the only place
 * the session's CDP policy lets a file be given to a page from (as a run's uploads do,
 * runs/handUploads.ts), each call in a folder of its own so names never collide, written by the
 * session's own user (sessionFiles.ts): a link the session planted cannot lead the write elsewhere.
 */
export function uploadTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_file_upload',
      description:
        "Give files to a file input by its ref (the files' bytes as base64, up to about 700 KB in all per call).",
      input: agentToolInputs.browser_file_upload,
      async run({ session_id, element, ref, files, snapshot }) {
        const page = await kit.browsers.page(session_id);
        const pwRef = kit.snapshots.resolve(session_id, ref);
        const session = kit.deps.sessions.get(session_id);
        if (!session) throw new ToolError(`Session ${session_id} is not live on this server`);
        for (const f of files)
          if (!isSafeFileName(f.name))
            throw new ToolError(`files: ${JSON.stringify(f.name.slice(0, 100))} is not a file name this server keeps`);
        const dir = path.join(session.folders.uploads, `agent-${randomUUID()}`);
        const paths = await writeAsSessionUser(
          session.user,
          dir,
          files.map((f) => ({ name: f.name, base64: f.content_base64 })),
        );
        try {
          await page.locator(`aria-ref=${pwRef}`).setInputFiles(paths, { timeout: ACTION_TIMEOUT_MS });
        } catch (err) {
          const line = (err as Error).message.split('\n')[0]!;
          throw new ToolError(
            /Timeout \d+ms exceeded/.test(line)
              ? `${quoted(element)} (${ref}) is not a file input shown now: take a new snapshot`
              : `${quoted(element)} (${ref}): ${line}`,
          );
        }
        const what = `Gave ${files.length} file${files.length === 1 ? '' : 's'} to ${quoted(element)}: ${files.map((f) => f.name).join(', ')}`;
        return afterAction(kit, session_id, what, `${what} (${ref})`, snapshot);
      },
    }),
  ];
}
