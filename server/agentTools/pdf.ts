import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';
import { within } from '../domain/within.ts';

/** The largest PDF kept: read in chunks and cut off past it, so a huge page cannot fill the service's memory. */
const PDF_MAX_BYTES = 50 * 1024 * 1024;
const PDF_TIMEOUT_MS = 60_000;
const CHUNK = 1024 * 1024;

/**
 * browser_pdf_save: Page.printToPDF (which headful Chromium answers as headless does, tested in
 * test/mcp.compat.test.ts), read as a stream in bounded chunks, then kept among the session's
 * downloads (artifacts/downloads.ts keepBytes: their name rules, count and byte cap), so it is
 * listed in file_metadata and downloads_list like a file the page downloaded.
 */
export function pdfTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_pdf_save',
      capability: 'pdf',
      description:
        "Save the session's page as a PDF among the session's downloads (downloads_list and the session's file_metadata list it, with its download_url). filename: the name to keep it under (a plain name ending in .pdf); default page-<time>.pdf.",
      input: agentToolInputs.browser_pdf_save,
      async run({ session_id, filename }) {
        const page = await kit.browsers.page(session_id);
        const cdp = await page.context().newCDPSession(page);
        const chunks: Buffer[] = [];
        let size = 0;
        try {
          const printed = await within(
            cdp.send('Page.printToPDF', { printBackground: true, transferMode: 'ReturnAsStream' }),
            PDF_TIMEOUT_MS,
            () => new ToolError(`The page was not printed within ${PDF_TIMEOUT_MS / 1000} s`),
          );
          const stream = printed.stream;
          if (!stream) throw new ToolError('The browser answered no PDF');
          try {
            for (;;) {
              const part = await cdp.send('IO.read', { handle: stream, size: CHUNK });
              const bytes = Buffer.from(part.data, part.base64Encoded ? 'base64' : 'utf8');
              size += bytes.length;
              if (size > PDF_MAX_BYTES)
                throw new ToolError(`The PDF is over ${PDF_MAX_BYTES / 1024 / 1024} MB: it was not kept`);
              chunks.push(bytes);
              if (part.eof) break;
            }
          } finally {
            await cdp.send('IO.close', { handle: stream }).catch(() => undefined);
          }
        } catch (err) {
          if (err instanceof ToolError) throw err;
          throw new ToolError(`The page could not be printed: ${(err as Error).message.split('\n')[0]}`);
        } finally {
          await cdp.detach().catch(() => undefined);
        }
        const name = filename ?? `page-${new Date().toISOString().replace(/[:.]/g, '-')}.pdf`;
        const kept = await kit.deps.keepFile(session_id, name, Buffer.concat(chunks, size));
        if (!kept.ok) throw new ToolError(`The PDF was not kept: ${kept.reason ?? 'refused'}`);
        const listed = kit.deps.downloads(session_id).find((f) => f.filename === kept.filename);
        return {
          content: [
            {
              type: 'text',
              text: `Saved the page as ${kept.filename} (${kept.file_size} bytes) in the session's downloads${listed ? `: ${listed.download_url}` : ''}`,
            },
          ],
          summary: `Saved the page as ${kept.filename} (${kept.file_size} bytes)`,
        };
      },
    }),
  ];
}
