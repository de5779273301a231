import { agentToolInputs } from '../../contract/agentTools.ts';
import { writeGivenFiles } from './givenFiles.ts';
import type { ToolKit } from './kit.ts';
import { afterAction, ACTION_TIMEOUT_MS } from './input.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';
import { locateTarget } from './targets.ts';

/**
 * browser_file_upload: the files go into the session's own uploads folder (givenFiles.ts), as a
 * run's uploads do (runs/handUploads.ts), and the file input is given them there.
 */
export function uploadTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_file_upload',
      description:
        'Give files to a file input. The input is `target`: a ref from the latest browser_snapshot or a CSS selector matching one element (`ref` is the older name). The files: `files`, their bytes as base64 (up to about 700 KB in all per call), and/or `paths`, names of files this session downloaded as downloads_list lists them. `paths` are never paths of your machine: this server cannot read your files, send their bytes instead.',
      input: agentToolInputs.browser_file_upload,
      async run({ session_id, paths, files, snapshot, ...where }) {
        const page = await kit.browsers.page(session_id);
        const { locator, label, given } = await locateTarget(kit, session_id, page, where);
        const written = await writeGivenFiles(kit, session_id, { paths, files });
        try {
          await locator.setInputFiles(written, { timeout: ACTION_TIMEOUT_MS });
        } catch (err) {
          const line = (err as Error).message.split('\n')[0]!;
          throw new ToolError(
            /Timeout \d+ms exceeded/.test(line)
              ? `${label} (${given}) is not a file input shown now: take a new snapshot`
              : `${label} (${given}): ${line}`,
          );
        }
        const names = [...(paths ?? []), ...(files ?? []).map((f) => f.name)];
        const what = `Gave ${names.length} file${names.length === 1 ? '' : 's'} to ${label}: ${names.join(', ')}`;
        return afterAction(kit, session_id, what, `${what} (${given})`, snapshot);
      },
    }),
  ];
}
