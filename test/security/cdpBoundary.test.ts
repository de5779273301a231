import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAX_CDP_DEPTH } from '../../contract/cdp.ts';
import { CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { startChildServer, type ChildServer } from '../helpers/childServer.ts';

/**
 * Issue 23, items 2-4 and the CDP half of 7: what a connect_url holder sends that once ended the
 * server (the text `null`, params nested 10,000 deep), stepped around the policy (a command
 * wrapped in Target.sendMessageToTarget), or grew its memory (a flood of large commands).
 * The server is a process of its own: a crash shows as a failed health check, and its memory is
 * its own, apart from the test's.
 */
let server: ChildServer;
const apiKey = 'test_cdp_boundary_0123456789abcdef';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-test-'));
beforeAll(async () => {
  // A loaded CI machine can take a while to compile and start a fresh process.
  server = await startChildServer({ dataDir, apiKey, timeoutMs: 90_000 });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Peak resident memory of the server process so far, MB (VmHWM). */
function peakMb(): number {
  const status = fs.readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

interface Reply {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A raw connect_url socket: the test writes exact frames and reads replies by id. */
class RawCdp {
  private readonly waiting = new Map<number, (r: Reply) => void>();
  readonly events: Reply[] = [];
  constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as Reply;
      if (m.id !== undefined && this.waiting.has(m.id)) {
        this.waiting.get(m.id)!(m);
        this.waiting.delete(m.id);
      } else this.events.push(m);
    });
  }

  static async open(): Promise<RawCdp> {
    const res = await fetch(`${server.url}/api/create_workflow_session`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ workflow_name: 'cdp boundary' }),
    });
    const s = CreateWorkflowSessionResponse.parse(await res.json());
    const ws = new WebSocket(s.connect_url!, { maxPayload: 64 * 1024 * 1024 });
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    return new RawCdp(ws);
  }

  /** Write `text` as is; resolve with the reply that carries `id`. */
  raw(text: string, id: number): Promise<Reply> {
    const reply = new Promise<Reply>((resolve) => this.waiting.set(id, resolve));
    this.ws.send(text);
    return reply;
  }

  send(id: number, method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Reply> {
    return this.raw(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }), id);
  }

  async pageTargetId(): Promise<string> {
    const { result } = await this.send(900_001, 'Target.getTargets');
    return (result!.targetInfos as { targetId: string; type: string }[]).find((t) => t.type === 'page')!.targetId;
  }

  close(): void {
    this.ws.close();
  }
}

async function healthy(): Promise<void> {
  const res = await fetch(`${server.url}/api/healthz`);
  expect(res.status).toBe(200);
}

describe('a connect_url client cannot end the server with what it sends', () => {
  it('answers the text null, an array, a number, and shapeless commands with a protocol error, and the connection still works', async () => {
    const cdp = await RawCdp.open();
    for (const text of [
      'null',
      '[]',
      '42',
      '"x"',
      '{}',
      '{"id":"1","method":"Browser.getVersion"}',
      '{"id":1.5,"method":"Browser.getVersion"}',
      '{"id":1,"method":7}',
      '{"id":1,"method":"Browser.getVersion","params":[1]}',
      '{"id":1,"method":"Browser.getVersion","sessionId":5}',
      'not json',
    ]) {
      const reply = await cdp.raw(text, /"id":1[,}]/.test(text) ? 1 : 0);
      expect(reply.error?.code, text).toBe(-32600);
    }
    const ok = await cdp.send(2, 'Browser.getVersion');
    expect(ok.result?.product).toMatch(/Chrome/);
    await healthy();
    cdp.close();
  });

  it(`refuses params nested 10,000 deep (over ${MAX_CDP_DEPTH}), without walking them`, async () => {
    const cdp = await RawCdp.open();
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const reply = await cdp.raw(`{"id":0,"method":"Runtime.evaluate","params":${deep}}`, 0);
    expect(reply.error?.message).toMatch(/nest at most/);
    // Brackets inside strings do not count: a deep-looking string is an ordinary value.
    const stringy = await cdp.send(3, 'Browser.getVersion', { note: '{'.repeat(5000) });
    expect(stringy.error).toBeUndefined();
    // Ordinary clients nest deeper than one might guess (Playwright's evaluate arguments pass 32): 100 levels go through.
    let nested: unknown = 1;
    for (let i = 0; i < 100; i++) nested = { a: nested };
    expect((await cdp.send(4, 'Browser.getVersion', { note: nested })).error).toBeUndefined();
    await healthy();
    cdp.close();
  });
});

describe('the policy applies to a command however it arrives', () => {
  it('unwraps Target.sendMessageToTarget on a non-flat session: host files are refused', async () => {
    const cdp = await RawCdp.open();
    const targetId = await cdp.pageTargetId();
    const attached = await cdp.send(10, 'Target.attachToTarget', { targetId, flatten: false });
    const sessionId = attached.result!.sessionId as string;
    expect(sessionId).toBeTruthy();
    const inner = (id: number, method: string, params: Record<string, unknown>) =>
      JSON.stringify({ id, method, params });

    // A page command wrapped once passes (the wrapped answer comes back as an event).
    const ok = await cdp.send(11, 'Target.sendMessageToTarget', {
      sessionId,
      message: inner(1, 'Runtime.evaluate', { expression: '6*7', returnByValue: true }),
    });
    expect(ok.error).toBeUndefined();

    // The same file command that is refused flat is refused wrapped, and wrapped twice.
    const files = inner(2, 'DOM.setFileInputFiles', { files: ['/etc/passwd'], backendNodeId: 1 });
    const once = await cdp.send(12, 'Target.sendMessageToTarget', { sessionId, message: files });
    expect(once.error?.message).toMatch(/uploads or downloads folder/);
    const twice = await cdp.send(13, 'Target.sendMessageToTarget', {
      sessionId,
      message: inner(3, 'Target.sendMessageToTarget', { sessionId, message: files }),
    });
    expect(twice.error?.message).toMatch(/uploads or downloads folder/);

    // Refused outright: a wrapped refused method, wrapping without end, and a wrapped message that is no command.
    const exposed = await cdp.send(14, 'Target.sendMessageToTarget', {
      sessionId,
      message: inner(4, 'Target.exposeDevToolsProtocol', { targetId }),
    });
    expect(exposed.error?.message).toMatch(/not available/);
    let nested = inner(5, 'Runtime.evaluate', { expression: '1' });
    for (let i = 0; i < 6; i++) nested = inner(6 + i, 'Target.sendMessageToTarget', { sessionId, message: nested });
    expect((await cdp.send(15, 'Target.sendMessageToTarget', { sessionId, message: nested })).error?.message).toMatch(
      /at most \d levels/,
    );
    expect((await cdp.send(16, 'Target.sendMessageToTarget', { sessionId, message: 'null' })).error?.message).toMatch(
      /wrapped message/,
    );
    await healthy();
    cdp.close();
  });

  it("cannot send into, or detach, another connection's target session", async () => {
    const a = await RawCdp.open();
    const targetId = await a.pageTargetId();
    const theirs = (await a.send(20, 'Target.attachToTarget', { targetId, flatten: true })).result!.sessionId as string;
    const b = new RawCdp(new WebSocket(a.ws.url));
    await new Promise((r, j) => b.ws.once('open', r).once('error', j));
    const into = await b.send(21, 'Target.sendMessageToTarget', {
      sessionId: theirs,
      message: JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: '1' } }),
    });
    expect(into.error?.message).toMatch(/not found/);
    const detach = await b.send(22, 'Target.detachFromTarget', { sessionId: theirs });
    expect(detach.error?.message).toMatch(/not found/);
    const byTarget = await b.send(23, 'Target.detachFromTarget', { targetId });
    expect(byTarget.error?.message).toMatch(/sessionId/);
    // A's session still answers.
    const still = await a.send(24, 'Runtime.evaluate', { expression: '1+1', returnByValue: true }, theirs);
    expect(still.result).toMatchObject({ result: { value: 2 } });
    a.close();
    b.close();
  });
});

describe('a flood of large commands does not grow the server', () => {
  it('100 commands of 3.5 MB sent without waiting are read only as fast as Chromium answers them', async () => {
    const cdp = await RawCdp.open();
    const targetId = await cdp.pageTargetId();
    const sessionId = (await cdp.send(30, 'Target.attachToTarget', { targetId, flatten: true })).result!
      .sessionId as string;
    const before = peakMb();
    const big = `'${'z'.repeat(3.5 * 1024 * 1024)}'.length`;
    const answers: Promise<Reply>[] = [];
    for (let id = 100; id < 200; id++)
      answers.push(
        cdp.raw(
          JSON.stringify({
            id,
            sessionId,
            method: 'Runtime.evaluate',
            params: { expression: big, returnByValue: true },
          }),
          id,
        ),
      );
    const all = await Promise.all(answers);
    // Every command was answered (none lost to the limits), with the right value.
    expect(all.every((r) => (r.result?.result as { value?: number } | undefined)?.value === 3.5 * 1024 * 1024)).toBe(
      true,
    );
    // Without the in-flight limit the server held a whole flood at once: 1.9 GB measured for 200
    // such commands, so about 950 MB for these 100. With it the live data is a few commands; the
    // peak is that plus garbage V8 has not collected yet, which grows on a loaded host (333 MB seen
    // once in CI with twice this flood). The line sits between the two.
    expect(peakMb() - before).toBeLessThan(700);
    await healthy();
    cdp.close();
    // Only a hang guard: 64 s idle for 200 commands, over 240 s on a host loaded by the whole suite.
  }, 600_000);
});
