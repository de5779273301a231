import { afterAll, beforeAll, expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startPopupSite, type PopupSite } from '../fixtures/popupSite.ts';
import { callTool, mcpClient, textOf } from './mcpClient.ts';
import { startServer, type TestServer } from './server.ts';

/** What the tabs and dialog tests run against: the real server, an MCP client on it, the popup site. */
export interface TabsBed {
  server: TestServer;
  site: PopupSite;
  client: Client;
}

/** Start the bed before the calling file's tests and end it after them (call at the file's top level). */
export function tabsBed() {
  const bed = {} as TabsBed;
  beforeAll(async () => {
    bed.server = await startServer();
    bed.site = await startPopupSite();
    bed.client = await mcpClient(bed.server);
  });
  afterAll(async () => {
    await bed.client?.close();
    await bed.server?.discard();
    await bed.site?.close();
  });

  /** A session on a page of the popup site. */
  async function newSession(path: string): Promise<string> {
    const res = await callTool(bed.client, 'session_create', {
      workflow_name: 'mcp-tabs',
      start_url: bed.site.origin + path,
    });
    expect(res.isError, textOf(res)).toBeFalsy();
    return (JSON.parse((res.content[0] as { text: string }).text) as { session_id: string }).session_id;
  }

  /**
   * The SDK's wait for one answer: a hang guard. A tab flood (200 popups, each a renderer the host
   * starts and the service attaches to) kept one call past the SDK's 60 s on a host busy with the
   * whole suite, though the same call takes seconds alone.
   */
  const CALL_TIMEOUT_MS = 180_000;

  /** A call that must succeed: its text. */
  async function ok(name: string, args: Record<string, unknown>): Promise<string> {
    const res = await callTool(bed.client, name, args, CALL_TIMEOUT_MS);
    expect(res.isError, `${name}: ${textOf(res)}`).toBeFalsy();
    return textOf(res);
  }

  /** A call that must fail: its message. */
  async function refused(name: string, args: Record<string, unknown>): Promise<string> {
    const res = await callTool(bed.client, name, args, CALL_TIMEOUT_MS);
    expect(res.isError, `${name} was not refused: ${textOf(res)}`).toBe(true);
    return textOf(res);
  }

  return { bed, newSession, ok, refused };
}

/** The tab lines of a browser_tabs answer (`- 0: (current) [Title](url)`). */
export const tabLines = (text: string) => text.split('\n').filter((l) => /^- \d+: /.test(l));
