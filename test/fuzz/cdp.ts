import fc from 'fast-check';
import { WebSocket } from 'ws';
import { CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { afterCase, check, healthy, type Service } from './harness.ts';

/**
 * Property 2: random connect_url traffic. Any JSON, real CDP method names mixed with junk,
 * Target.sendMessageToTarget wrapped in itself, bounded floods, binary frames, invalid UTF-8,
 * frames near and over the 4 MB limit, nesting near and over 32 levels. Stand-ins resolved at
 * send time: $PAGE (the page's targetId), $SESSION (a target session this connection attached).
 * Besides the checks every case ends with: every frame the server sends is a JSON object, a
 * command refused by the policy (however wrapped) never gets a result, and a connection that is
 * still open answers a plain command.
 */

type Json = unknown;

const REAL_METHODS = [
  'Browser.getVersion',
  'Browser.close',
  'Browser.crash',
  'Browser.crashGpuProcess',
  'Browser.setDownloadBehavior',
  'Browser.getWindowForTarget',
  'Browser.setWindowBounds',
  'Target.getTargets',
  'Target.createTarget',
  'Target.closeTarget',
  'Target.attachToTarget',
  'Target.detachFromTarget',
  'Target.setAutoAttach',
  'Target.setDiscoverTargets',
  'Target.exposeDevToolsProtocol',
  'Target.setRemoteLocations',
  'Target.attachToBrowserTarget',
  'Target.createBrowserContext',
  'Target.disposeBrowserContext',
  'Target.sendMessageToTarget',
  'Page.navigate',
  'Page.reload',
  'Page.enable',
  'Page.captureScreenshot',
  'Page.printToPDF',
  'Page.setDownloadBehavior',
  'Page.close',
  'Page.crash',
  'Page.startScreencast',
  'Page.handleJavaScriptDialog',
  'Runtime.evaluate',
  'Runtime.enable',
  'Runtime.terminateExecution',
  'DOM.getDocument',
  'DOM.setFileInputFiles',
  'Network.enable',
  'Network.setCacheDisabled',
  'Fetch.enable',
  'Emulation.setDeviceMetricsOverride',
  'Emulation.setCPUThrottlingRate',
  'Input.dispatchKeyEvent',
  'Input.dispatchMouseEvent',
  'Input.dispatchDragEvent',
  'Debugger.enable',
  'Debugger.pause',
  'Storage.clearDataForOrigin',
  'SystemInfo.getInfo',
  'IO.read',
  'IO.close',
  'Tracing.start',
  'Tracing.end',
  'Memory.getDOMCounters',
  'Extensions.loadUnpacked',
  'Extensions.uninstall',
  'Log.enable',
  'Schema.getDomains',
];
/** What the policy refuses outright, whatever the parameters. */
const REFUSED = (method: string) =>
  method === 'Target.exposeDevToolsProtocol' ||
  method === 'Target.setRemoteLocations' ||
  method.startsWith('Extensions.');
/** What a context session's view (sessions/cdp/contextScope.ts) refuses besides, on any session: each reaches the shared browser. */
const REFUSED_IN_CONTEXT = (method: string) =>
  REFUSED(method) ||
  ['Browser.crash', 'Browser.crashGpuProcess', 'Target.createBrowserContext', 'Target.disposeBrowserContext'].includes(
    method,
  ) ||
  method.startsWith('SystemInfo.') ||
  method.startsWith('Tracing.');
const HOST_FILES = ['/etc/passwd', '/root', '/tmp/../etc/shadow', 'relative.txt'];

const junkMethod = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '',
    '.',
    'Target.',
    '__proto__',
    'constructor',
    'x'.repeat(201),
    'Runtime.evaluate\u0000',
    'Браузер.getVersion',
  ),
);
const methodArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...REAL_METHODS) },
  { weight: 1, arbitrary: junkMethod },
);

const smallJson = fc.jsonValue({ maxDepth: 3 });
const paramsFor = (method: string): fc.Arbitrary<Json> => {
  const templates: Record<string, fc.Arbitrary<Json>> = {
    'Page.navigate': fc.record({
      url: fc.constantFrom(
        'about:blank',
        'chrome://crash',
        'chrome://hang',
        'file:///etc/passwd',
        'http://127.0.0.1:1/',
        'javascript:while(1){}',
        'data:text/html,<b>x</b>',
        'http://fuzz.invalid/',
      ),
    }),
    'Runtime.evaluate': fc.record(
      {
        expression: fc.constantFrom(
          '1+1',
          'while(1){}',
          'alert(1)',
          'window.open("about:blank")',
          'new Array(1e6).fill(0).length',
          'location.reload()',
          'window.close()',
        ),
        awaitPromise: fc.boolean(),
        returnByValue: fc.boolean(),
      },
      { requiredKeys: ['expression'] },
    ),
    'Target.createTarget': fc.record({ url: fc.constantFrom('about:blank', 'chrome://version', 'file:///') }),
    'Target.attachToTarget': fc.record({ targetId: fc.constantFrom('$PAGE', 'nope', ''), flatten: fc.boolean() }),
    'Target.closeTarget': fc.record({ targetId: fc.constantFrom('$PAGE', 'nope') }),
    'Target.detachFromTarget': fc.record(
      { sessionId: fc.constantFrom('$SESSION', 'nope'), targetId: fc.constantFrom('$PAGE') },
      { requiredKeys: [] },
    ),
    'Target.exposeDevToolsProtocol': fc.record({ targetId: fc.constantFrom('$PAGE') }),
    'Target.setRemoteLocations': fc.record({ locations: fc.constant([{ host: '127.0.0.1', port: 1 }]) }),
    'DOM.setFileInputFiles': fc.record({
      files: fc.array(fc.constantFrom(...HOST_FILES), { minLength: 1, maxLength: 2 }),
      backendNodeId: fc.nat(5),
    }),
    'Input.dispatchDragEvent': fc.record({
      type: fc.constant('dragEnter'),
      x: fc.nat(100),
      y: fc.nat(100),
      data: fc.record({
        items: fc.constant([]),
        files: fc.array(fc.constantFrom(...HOST_FILES), { minLength: 1, maxLength: 1 }),
        dragOperationsMask: fc.constant(1),
      }),
    }),
    'Browser.setDownloadBehavior': fc.record(
      {
        behavior: fc.constantFrom('allow', 'allowAndName', 'deny', 'default', 'junk'),
        downloadPath: fc.constantFrom('/', '/etc', '../..'),
      },
      { requiredKeys: ['behavior'] },
    ),
    'Page.setDownloadBehavior': fc.record({
      behavior: fc.constantFrom('allow', 'deny'),
      downloadPath: fc.constantFrom('/', '/tmp'),
    }),
    'Emulation.setDeviceMetricsOverride': fc.record({
      width: fc.nat(3000),
      height: fc.nat(3000),
      deviceScaleFactor: fc.constantFrom(0, 1, 3),
      mobile: fc.boolean(),
    }),
    'Page.captureScreenshot': fc.record(
      {
        format: fc.constantFrom('png', 'jpeg', 'webp', 'gif'),
        clip: fc.record({
          x: fc.nat(100),
          y: fc.nat(100),
          width: fc.integer({ min: 0, max: 3000 }),
          height: fc.integer({ min: 0, max: 3000 }),
          scale: fc.constantFrom(0.1, 1, 2),
        }),
      },
      { requiredKeys: [] },
    ),
    'Input.dispatchKeyEvent': fc.record({
      type: fc.constantFrom('keyDown', 'keyUp', 'char', 'nope'),
      key: fc.constantFrom('a', 'Enter', 'F5'),
    }),
    'Storage.clearDataForOrigin': fc.record({
      origin: fc.constantFrom('*', 'http://127.0.0.1'),
      storageTypes: fc.constant('all'),
    }),
    'Emulation.setCPUThrottlingRate': fc.record({ rate: fc.constantFrom(1, 4, 100) }),
    'IO.read': fc.record({ handle: fc.constantFrom('x', '0', '') }),
  };
  return fc.oneof(
    {
      weight: 3,
      arbitrary:
        (Object.hasOwn(templates, method) && templates[method]) ||
        fc.dictionary(fc.string({ maxLength: 8 }), smallJson, { maxKeys: 4 }),
    },
    { weight: 1, arbitrary: smallJson },
  );
};

/** An id as sent: fresh (unique, so its answer can be told apart) or anything at all. */
const idArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant<'fresh'>('fresh') },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 5 }),
      fc.constant(null),
      fc.constant(Number.MAX_SAFE_INTEGER + 2),
    ),
  },
);
const sessionArb = fc.constantFrom('none', '$SESSION', 'junk', 'long');

interface Command {
  id: 'fresh' | Json;
  method: string;
  params?: Json;
  session: string;
  /** Extra fields CdpCommand does not name: dropped by the server. */
  extra?: Record<string, Json>;
}
const commandArb: fc.Arbitrary<Command> = methodArb.chain((method) =>
  fc.record(
    {
      id: idArb,
      method: fc.constant(method),
      params: paramsFor(method),
      session: sessionArb,
      extra: fc.dictionary(fc.constantFrom('result', 'error', 'x', '__proto__'), smallJson, { maxKeys: 2 }),
    },
    { requiredKeys: ['id', 'method', 'session'] },
  ),
);

export type Frame =
  | { k: 'json'; value: Json }
  | { k: 'text'; text: string }
  | { k: 'command'; command: Command }
  | { k: 'wrapped'; depth: number; inner: Command | { junk: string }; session: string }
  | { k: 'flood'; count: number; command: Command }
  | { k: 'big'; count: number; mb: number }
  | { k: 'binary'; bytes: Uint8Array; asCommand: boolean }
  | { k: 'invalidUtf8'; bytes: Uint8Array }
  | { k: 'deep'; depth: number; inString: boolean }
  | { k: 'wait'; ms: number };

const frameArb: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ k: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 4 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('text' as const),
      text: fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(
          'null',
          '',
          ' ',
          '{',
          '{"id":1,',
          '[1,2',
          '{"id":1,"method":"Browser.getVersion"}{"id":2}',
          '\u0000',
        ),
      ),
    }),
  },
  { weight: 6, arbitrary: fc.record({ k: fc.constant('command' as const), command: commandArb }) },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('wrapped' as const),
      depth: fc.integer({ min: 1, max: 6 }),
      inner: fc.oneof(
        { weight: 4, arbitrary: commandArb },
        {
          weight: 1,
          arbitrary: fc.record({
            junk: fc.constantFrom('null', '[]', 'not json', '{"id":1}', '{"id":1,"method":"x","params":[]}'),
          }),
        },
      ),
      session: fc.constantFrom('$SESSION', '$SESSION', 'junk'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('flood' as const),
      count: fc.integer({ min: 10, max: 1200 }),
      command: fc.record({
        id: fc.constant<'fresh'>('fresh'),
        method: fc.constantFrom('Browser.getVersion', 'Target.getTargets', 'No.such', 'SystemInfo.getInfo'),
        session: fc.constant('none'),
      }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('big' as const),
      count: fc.integer({ min: 1, max: 3 }),
      mb: fc.constantFrom(0.5, 2, 3.9, 3.999, 4.001, 4.2),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('binary' as const),
      bytes: fc.uint8Array({ maxLength: 64 }),
      asCommand: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('invalidUtf8' as const),
      bytes: fc.constantFrom(
        new Uint8Array([0xff, 0xfe]),
        new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
        new Uint8Array([0xed, 0xa0, 0x80]),
        new Uint8Array([0xf8, 0x88, 0x80, 0x80, 0x80]),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('deep' as const),
      depth: fc.constantFrom(30, 32, 33, 64, 10_000),
      inString: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 300 }) }) },
);

export interface CdpCase {
  /** A browser of its own, or a context in a browser its key shares (the view's rules apply besides the policy). */
  isolation: 'browser' | 'context';
  /** Attach to the page first (flat or not), so $SESSION names a target session of this connection. */
  attach: 'none' | 'flat' | 'nonflat';
  frames: Frame[];
}

export const cdpCaseArb: fc.Arbitrary<CdpCase> = fc.record({
  isolation: fc.constantFrom('browser', 'context'),
  attach: fc.constantFrom('none', 'flat', 'nonflat'),
  frames: fc.array(frameArb, { minLength: 1, maxLength: 25 }),
});

interface Reply {
  id?: unknown;
  method?: string;
  result?: unknown;
  error?: { code?: number; message?: string };
  params?: Record<string, unknown>;
}

/** One connect_url connection, its replies by id, and whether and how it closed. */
class Connection {
  readonly replies = new Map<number, Reply>();
  readonly problems: string[] = [];
  closed: { code: number; reason: string } | undefined;
  private waiters = new Map<number, () => void>();
  private nextFresh = 1_000_000;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data);
      let msg: Reply;
      try {
        msg = JSON.parse(text) as Reply;
      } catch {
        this.problems.push(`the server sent a frame that is not JSON: ${text.slice(0, 200)}`);
        return;
      }
      if (msg === null || typeof msg !== 'object' || Array.isArray(msg))
        return void this.problems.push(`the server sent a frame that is not a JSON object: ${text.slice(0, 200)}`);
      if (typeof msg.id === 'number') {
        this.replies.set(msg.id, msg);
        this.waiters.get(msg.id)?.();
      }
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      for (const w of this.waiters.values()) w();
    });
    ws.on('error', () => undefined);
  }

  fresh(): number {
    return this.nextFresh++;
  }

  send(data: string | Buffer, binary = false): Promise<void> {
    if (this.ws.readyState !== WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve) => this.ws.send(data, { binary }, () => resolve()));
  }

  /** The reply to `id`, or undefined when the connection closed or `timeoutMs` passed. */
  async reply(id: number, timeoutMs: number): Promise<Reply | undefined> {
    if (this.replies.has(id) || this.closed) return this.replies.get(id);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.waiters.delete(id);
    return this.replies.get(id);
  }
}

/** What stand-ins are filled with, and what this session refuses whatever the parameters. */
interface Stand {
  page: string;
  session: string;
  refused: (method: string) => boolean;
}

/** The text of a command, stand-ins filled; `fresh` ids are numbered and noted with what they must be refused for. */
function commandText(
  conn: Connection,
  c: Command,
  ctx: Stand,
  mustFail: Map<number, string>,
  wrappedMethods: string[] = [],
): string {
  const id = c.id === 'fresh' ? conn.fresh() : c.id;
  const session =
    c.session === 'none'
      ? undefined
      : c.session === '$SESSION'
        ? ctx.session
        : c.session === 'junk'
          ? 'junk-session'
          : 'S'.repeat(300);
  const params = JSON.parse(
    JSON.stringify(c.params ?? {})
      .replaceAll('$PAGE', ctx.page)
      .replaceAll('$SESSION', ctx.session),
  ) as Json;
  const methods = [c.method, ...wrappedMethods];
  const hostFiles =
    JSON.stringify(params).match(/"files":\[[^\]]*"(\/etc|\/root|\/tmp\/\.\.|relative)/) !== null &&
    /DOM\.setFileInputFiles|Input\.dispatchDragEvent/.test(c.method);
  if (typeof id === 'number' && c.id === 'fresh' && (methods.some(ctx.refused) || hostFiles))
    mustFail.set(id, `${methods.join(' wrapping ')} ${JSON.stringify(params).slice(0, 200)}`);
  return JSON.stringify({
    ...c.extra,
    id,
    method: c.method,
    ...(c.params !== undefined ? { params } : {}),
    ...(session !== undefined ? { sessionId: session } : {}),
  });
}

function wrap(
  conn: Connection,
  frame: Extract<Frame, { k: 'wrapped' }>,
  ctx: Stand,
  mustFail: Map<number, string>,
): string {
  const innerMethod = 'junk' in frame.inner ? undefined : frame.inner.method;
  let text =
    'junk' in frame.inner ? frame.inner.junk : commandText(conn, { ...frame.inner, id: conn.fresh() }, ctx, new Map());
  for (let level = 1; level <= frame.depth; level++) {
    const session = frame.session === '$SESSION' ? '$SESSION' : 'junk';
    const outer: Command = {
      id: level === frame.depth ? 'fresh' : conn.fresh(),
      method: 'Target.sendMessageToTarget',
      params: { sessionId: session, message: text },
      session: 'none',
    };
    // Only the outermost is answered to us: that is the one a refused wrapped method must fail.
    text = commandText(
      conn,
      outer,
      ctx,
      level === frame.depth ? mustFail : new Map(),
      level === frame.depth && innerMethod && ctx.refused(innerMethod) ? [innerMethod] : [],
    );
  }
  return text;
}

async function createSession(
  svc: Service,
  isolation: CdpCase['isolation'],
): Promise<{ sessionId: string; connectUrl: string }> {
  const res = await svc.postJson('/api/create_workflow_session', { workflow_name: 'fuzz cdp', isolation });
  const text = await res.text();
  check(res.status === 200, `create_workflow_session answered ${res.status}: ${text.slice(0, 500)}`);
  const s = CreateWorkflowSessionResponse.parse(JSON.parse(text));
  check(s.connect_url, 'create_workflow_session gave no connect_url');
  return { sessionId: s.session_id, connectUrl: s.connect_url };
}

/** One case: a session, a connection, the frames; then the connection checks and those every case ends with. */
export async function runCdpCase(fuzz: CdpCase, svc: Service): Promise<void> {
  await svc.up();
  await healthy(svc);
  const { connectUrl } = await createSession(svc, fuzz.isolation);
  const ws = new WebSocket(connectUrl, { maxPayload: 256 * 1024 * 1024 });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const conn = new Connection(ws);
  const mustFail = new Map<number, string>();
  try {
    const targetsId = conn.fresh();
    await conn.send(JSON.stringify({ id: targetsId, method: 'Target.getTargets' }));
    const targets = await conn.reply(targetsId, 15_000);
    const page =
      ((targets?.result as { targetInfos?: { targetId: string; type: string }[] } | undefined)?.targetInfos ?? []).find(
        (t) => t.type === 'page',
      )?.targetId ?? 'no-page';
    check(
      page !== 'no-page',
      () => `Target.getTargets on a new session's connect_url found no page: ${JSON.stringify(targets)?.slice(0, 300)}`,
    );
    let session = 'no-session';
    if (fuzz.attach !== 'none') {
      const id = conn.fresh();
      await conn.send(
        JSON.stringify({
          id,
          method: 'Target.attachToTarget',
          params: { targetId: page, flatten: fuzz.attach === 'flat' },
        }),
      );
      const attached = await conn.reply(id, 15_000);
      session = (attached?.result as { sessionId?: string } | undefined)?.sessionId ?? 'no-session';
      check(
        session !== 'no-session',
        () => `Target.attachToTarget on the page failed: ${JSON.stringify(attached)?.slice(0, 300)}`,
      );
    }
    const ctx: Stand = { page, session, refused: fuzz.isolation === 'context' ? REFUSED_IN_CONTEXT : REFUSED };

    for (const frame of fuzz.frames) {
      if (conn.closed) break;
      switch (frame.k) {
        case 'json':
          await conn.send(JSON.stringify(frame.value));
          break;
        case 'text':
          await conn.send(frame.text);
          break;
        case 'command':
          await conn.send(commandText(conn, frame.command, ctx, mustFail));
          break;
        case 'wrapped':
          await conn.send(wrap(conn, frame, ctx, mustFail));
          break;
        case 'flood': {
          const sends: Promise<void>[] = [];
          for (let i = 0; i < frame.count; i++) sends.push(conn.send(commandText(conn, frame.command, ctx, mustFail)));
          await Promise.all(sends);
          break;
        }
        case 'big':
          for (let i = 0; i < frame.count; i++) {
            const filler = 'z'.repeat(Math.floor(frame.mb * 1024 * 1024));
            await conn.send(
              JSON.stringify({
                id: conn.fresh(),
                method: 'Runtime.evaluate',
                params: { expression: `'${filler}'.length` },
                ...(session !== 'no-session' && fuzz.attach === 'flat' ? { sessionId: session } : {}),
              }),
            );
          }
          break;
        case 'binary':
          await conn.send(
            frame.asCommand
              ? Buffer.from(JSON.stringify({ id: conn.fresh(), method: 'Browser.getVersion' }))
              : Buffer.from(frame.bytes),
            true,
          );
          break;
        case 'invalidUtf8':
          await conn.send(Buffer.from(frame.bytes), false);
          break;
        case 'deep': {
          const inner = frame.inString
            ? `"${'['.repeat(frame.depth)}"`
            : `${'['.repeat(frame.depth)}1${']'.repeat(frame.depth)}`;
          await conn.send(`{"id":${conn.fresh()},"method":"Runtime.evaluate","params":{"x":${inner}}}`);
          break;
        }
        case 'wait':
          await new Promise((r) => setTimeout(r, frame.ms));
          break;
      }
    }

    // A connection still open answers a plain command (after whatever it was sent: floods are read as Chromium answers).
    if (!conn.closed) {
      const probe = conn.fresh();
      await conn.send(JSON.stringify({ id: probe, method: 'Browser.getVersion' }));
      const answer = await conn.reply(probe, 60_000);
      check(answer || conn.closed, `the connection neither answered Browser.getVersion within 60 s nor closed`);
      if (answer && !conn.closed)
        check(
          (answer.result as { product?: string } | undefined)?.product,
          () => `Browser.getVersion answered without a product: ${JSON.stringify(answer)?.slice(0, 300)}`,
        );
    }
    // Give refused commands sent late their answer (the connection may be backed up behind a flood).
    for (const [id, what] of mustFail) {
      const reply = await conn.reply(id, conn.closed ? 0 : 10_000);
      check(
        !reply || reply.result === undefined,
        () => `a command the policy refuses got a result: ${what} -> ${JSON.stringify(reply)?.slice(0, 300)}`,
      );
    }
    check(conn.problems.length === 0, () => conn.problems.join('; '));
    if (process.env.FUZZ_DEBUG)
      console.log(
        `fuzz cdp: ${fuzz.attach} ${fuzz.frames.map((f) => (f.k === 'command' ? f.command.method : f.k)).join(',')} -> ${conn.replies.size} replies, ${mustFail.size} refused, closed ${JSON.stringify(conn.closed ?? null)}`,
      );
  } finally {
    ws.terminate();
  }
  await afterCase(svc);
}
