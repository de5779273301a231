import { randomUUID } from 'node:crypto';
import http from 'node:http';
import fc from 'fast-check';
import { ErrorBody } from '../../contract/errors.ts';
import { operations } from '../../contract/index.ts';
import type { Operation } from '../../contract/operation.ts';
import { afterCase, check, checkRunOutcome, healthy, untilRunEnds, type Service } from './harness.ts';
import { rawRequest, type RawRequest } from './rawHttp.ts';

/**
 * Property 3: every contract route (contract/index.ts `operations`) with random and mutated
 * bodies, in random encodings, with random headers, with and without the API key, written as raw
 * bytes. Per response: no 5xx but those the operation lists (its `errors` and responses); an error
 * from /api has the one error body (contract/errors.ts); an operation that needs the key never
 * answers 2xx without it; a well-framed request is answered. Runs a request started are followed
 * to their end. Stand-ins resolved at send time: $WORKFLOW (a workflow made for the case), $SESSION
 * (a session of the server, ended), $UUID (a fresh one).
 */

export interface RouteWorld {
  svc: Service;
  apiKey: string;
}

type Json = unknown;

/** A valid body for each operation that takes one (checked against its schema below, so they stay valid). */
const VALID_BODIES: Record<string, Record<string, Json>> = {
  write: { prompt: 'Write a haiku about browsers' },
  writeStream: { prompt: 'Write one sentence' },
  createWorkflowSession: { workflow_name: 'fuzz routes', timeout: 60, presentation: 'browser', metadata: '{"a":1}' },
  runWorkflow: { workflow_id: '$WORKFLOW', metadata: '{"k":"v"}', variables: '{}' },
  pause: { session_id: '$SESSION' },
  resume: { session_id: '$SESSION' },
  interrupt: { session_id: '$SESSION' },
  // message_url: on a live case, the answer to the run's pause (stored in its variable).
  agentMessage: { message: 'fuzz answer' },
  closeSession: { session_id: '$SESSION' },
  updateSession: { timeout: 600 },
  storeCredential: { name: 'fuzz_route', value: 'secret', allowed_origins: ['https://example.com'] },
  deleteCredential: { name: 'fuzz_route' },
  createWorkflow: {
    name: 'fuzz made',
    flow: { title: 't', steps: [{ type: 'navigate', url: 'about:blank' }] },
    variables: [{ name: 'v', type: 'string', required: false }],
    metadata: 'm',
    structured_output: { a: [1] },
  },
  updateWorkflow: { name: 'fuzz updated', flow: { title: 't', steps: [] }, variables: [] },
  updateWorkflowMetadata: { workflow_id: '$WORKFLOW', metadata: 'meta' },
  simplexCreateWorkflow: {
    name: 'fuzz simplex',
    url: 'about:blank',
    actions: [{ type: 'waitForExpression', expression: 'true' }],
    variables: { q: 'x' },
  },
  simplexUpdateWorkflow: { url: 'about:blank', metadata: null },
  createApiKey: { name: 'fuzz key' },
  createProfile: { name: 'fuzz-profile.1', storage_state: { cookies: [], origins: [] } },
  restoreProfile: { version: 1 },
};

const VALID_QUERIES: Record<string, Record<string, string>> = {
  listWrites: { limit: '5' },
  listSessions: {
    state: 'live',
    limit: '100',
    q: 'checkout req_7',
    from: '2026-01-01T00:00:00Z',
    sort: 'duration',
    order: 'asc',
  },
  listRuns: {
    status: 'failed',
    workflow_id: '$WORKFLOW',
    q: 'order 100%',
    to: '2099-01-01T00:00:00+02:00',
    sort: 'workflow_name',
  },
  runWorkflowStatus: { session_id: '$SESSION' },
  downloadSessionFiles: { session_id: '$SESSION', filename: 'data.bin' },
  listWorkflows: { limit: '1', cursor: 'abc' },
  searchWorkflows: { workflow_name: 'fuzz', metadata: 'meta' },
  sessionEvents: { since: '0' },
  getOverview: { since: '2026-01-01T00:00:00+01:00' },
  pollCliAuth: { ticket_id: '$UUID', poll_token: 'fuzz-poll-token-0123456789abcdefghijklmnopq' },
  workflowCode: { format: 'playwright' },
  retrieveGeneratedCode: { format: 'puppeteer' },
  listWebhookDeliveries: { limit: '3', status: 'failed', cursor: 'WyIyMDI2LTAxLTAxVDAwOjAwOjAwLjAwMFoiLCJtc2dfIl0' },
};

const stand = (text: string) =>
  text.replaceAll('$WORKFLOW', randomUUID()).replaceAll('$SESSION', randomUUID()).replaceAll('$UUID', randomUUID());
for (const [id, body] of Object.entries(VALID_BODIES)) {
  const op = operations[id];
  if (!op?.body) throw new Error(`fuzz routes: ${id} is no operation with a body`);
  const parsed = op.body.schema.safeParse(JSON.parse(stand(JSON.stringify(body))));
  if (!parsed.success) throw new Error(`fuzz routes: the valid body of ${id} is not valid: ${parsed.error.message}`);
}

const OP_IDS = Object.keys(operations);
/** The server's body limit (server/http/errors.ts: 1 MiB); run_workflow's multipart has its own, larger ones. */
const BODY_LIMIT = 1024 * 1024;

/** How a valid body is spoiled, field by field (the fields are the schema's, through the valid body). */
type Mutation =
  | { m: 'none' }
  | { m: 'wrongType'; field: number; value: Json }
  | { m: 'missing'; field: number }
  | { m: 'extra'; key: string; value: Json }
  | { m: 'hugeString'; field: number; length: number }
  | { m: 'deep'; field: number; depth: number }
  | { m: 'loneSurrogate'; field: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ m: 'none' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      m: fc.constant('wrongType' as const),
      field: fc.nat(10),
      value: fc.oneof(
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.integer(), { maxLength: 2 }),
        fc.constant({}),
        fc.double(),
        fc.string({ maxLength: 5 }),
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ m: fc.constant('missing' as const), field: fc.nat(10) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      m: fc.constant('extra' as const),
      key: fc.constantFrom('__proto__', 'constructor', 'extra', 'files', 'id', ''),
      value: fc.jsonValue({ maxDepth: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      m: fc.constant('hugeString' as const),
      field: fc.nat(10),
      length: fc.constantFrom(10_001, 100_000, 1_100_000),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      m: fc.constant('deep' as const),
      field: fc.nat(10),
      depth: fc.constantFrom(63, 65, 1000, 50_000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ m: fc.constant('loneSurrogate' as const), field: fc.nat(10) }) },
);

type BodyContent =
  { b: 'valid'; mutation: Mutation } | { b: 'anything'; value: Json } | { b: 'text'; text: string } | { b: 'none' };
const bodyArb: fc.Arbitrary<BodyContent> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ b: fc.constant('valid' as const), mutation: mutationArb }) },
  { weight: 2, arbitrary: fc.record({ b: fc.constant('anything' as const), value: fc.jsonValue({ maxDepth: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      b: fc.constant('text' as const),
      text: fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('', 'null', '{', '{"a":1}{"b":2}', '\ufeff{}', '[]', '"x"', '1e999999'),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ b: 'none' as const }) },
);

type Encoding = 'json' | 'form' | 'multipart' | 'multipartBroken' | 'none' | 'garbage';
const GARBAGE_TYPES = [
  'text/plain',
  'application/xml',
  'application/json; charset=utf-16',
  'multipart/form-data',
  'application/x-www-form-urlencoded; charset=latin1',
  '*/*',
  'application/json, text/plain',
  '\xff/\xfe',
  '',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/json;;;',
  'multipart/form-data; boundary=',
  'multipart/mixed; boundary=x',
];

const EXTRA_HEADERS = [
  'Accept: text/event-stream',
  'Accept: */*',
  'Accept-Encoding: gzip, br',
  'Range: bytes=0-10',
  'Range: bytes=999999999-',
  'Range: bytes=x',
  'X-Forwarded-For: 1.2.3.4',
  'Origin: http://evil.example',
  'Expect: 100-continue',
  'Content-Encoding: gzip',
  'Cookie: a=b',
  'Last-Event-ID: 99999999999999999999',
  'Last-Event-ID: -1',
  `X-Huge: ${'a'.repeat(20_000)}`,
  'X-Bad: \x01\x02',
  'X-Latin: \xe9\xff',
  'Transfer-Encoding: gzip, chunked',
];

export interface RouteRequest {
  /** An operation by id, or a path that is none. */
  op: string;
  method: 'op' | 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'PROPFIND';
  param: 'workflow' | 'session' | 'uuid' | 'message' | 'junk' | 'traversal' | 'huge' | 'encoded';
  junk: string;
  query: 'none' | 'valid' | 'random' | 'duplicate' | 'badPercent' | 'huge';
  randomQuery: Record<string, string>;
  auth: 'key' | 'none' | 'wrong' | 'twice' | 'queryKey';
  encoding: Encoding;
  garbageType: string;
  body: BodyContent;
  /** Invalid UTF-8 bytes spliced into the body. */
  badBytes: boolean;
  headers: string[];
  framing: 'exact' | 'chunked' | 'short' | 'long' | 'both';
}

const OTHER_PATHS = [
  '/api/',
  '/api/nope',
  '/api//workflows',
  '/api/workflows/',
  '/API/healthz',
  '/api/%2e%2e/healthz',
  '/s/$UUID/cdp',
  '/s/x/cdp/json/version',
  '/',
  '/index.html',
  '/%',
  '/api/%zz',
  '*',
  'http://evil.example/api/healthz',
  '/api/workflows?limit=1#frag',
  `/api/${'x'.repeat(70_000)}`,
  '/api/session/$UUID/files/..%2f..%2fetc%2fpasswd',
  '/v/$UUID',
  '/vnc/$UUID',
];

const routeRequestArb: fc.Arbitrary<RouteRequest> = fc.record({
  op: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...OP_IDS) },
    { weight: 1, arbitrary: fc.constantFrom(...OTHER_PATHS).map((p) => `path:${p}`) },
  ),
  method: fc.oneof(
    { weight: 6, arbitrary: fc.constant('op' as const) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'GET' as const,
        'POST' as const,
        'PUT' as const,
        'PATCH' as const,
        'DELETE' as const,
        'HEAD' as const,
        'OPTIONS' as const,
        'PROPFIND' as const,
      ),
    },
  ),
  param: fc.constantFrom('workflow', 'session', 'uuid', 'uuid', 'message', 'junk', 'traversal', 'huge', 'encoded'),
  junk: fc.string({ maxLength: 12 }),
  query: fc.constantFrom('none', 'valid', 'valid', 'random', 'duplicate', 'badPercent', 'huge'),
  randomQuery: fc.dictionary(
    fc.constantFrom(
      'limit',
      'cursor',
      'state',
      'status',
      'session_id',
      'token',
      'since',
      'workflow_name',
      'metadata',
      'filename',
      '__proto__',
    ),
    fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('-1', '0', '1e3', '101', 'NaN', 'live', 'queued', '$UUID')),
  ),
  auth: fc.constantFrom('key', 'key', 'key', 'none', 'wrong', 'twice', 'queryKey'),
  encoding: fc.constantFrom('json', 'json', 'json', 'form', 'multipart', 'multipartBroken', 'none', 'garbage'),
  garbageType: fc.constantFrom(...GARBAGE_TYPES),
  body: bodyArb,
  badBytes: fc.boolean(),
  headers: fc.subarray(EXTRA_HEADERS, { maxLength: 3 }),
  framing: fc.oneof(
    { weight: 8, arbitrary: fc.constant('exact' as const) },
    { weight: 1, arbitrary: fc.constantFrom('chunked' as const, 'short' as const, 'long' as const, 'both' as const) },
  ),
});

export interface RouteCase {
  /** The requests act on a run under way ($SESSION is its session): pause, resume, interrupt, close, views, events… */
  live: boolean;
  /** For a live case, how long the run goes on before the requests: they find it starting, in a step, or paused. */
  liveAfterMs: number;
  requests: RouteRequest[];
}
export const routeCaseArb: fc.Arbitrary<RouteCase> = fc.record({
  live: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  liveAfterMs: fc.integer({ min: 0, max: 4000 }),
  requests: fc.array(routeRequestArb, { minLength: 1, maxLength: 8 }),
});

/** The run a live case acts on: a step that takes a while, a pause step, one more. */
const LIVE_FLOW = {
  title: 'live',
  steps: [
    { type: 'navigate', url: 'about:blank' },
    { type: 'waitForExpression', expression: 'new Promise((r) => setTimeout(() => r(true), 1500))', timeout: 3000 },
    { type: 'customStep', name: 'pause', parameters: { message: 'fuzz pause', variable: 'answer' } },
    { type: 'waitForExpression', expression: 'true' },
  ],
};

/** The valid body of `op`, spoiled as the mutation says (fields are numbered in the body's key order). */
function mutated(op: string, mutation: Mutation): Json {
  const valid = structuredClone(VALID_BODIES[op] ?? { name: 'x' });
  const keys = Object.keys(valid);
  const key = (i: number) => keys[i % keys.length]!;
  switch (mutation.m) {
    case 'none':
      return valid;
    case 'wrongType':
      valid[key(mutation.field)] = mutation.value;
      return valid;
    case 'missing':
      delete valid[key(mutation.field)];
      return valid;
    case 'extra':
      return { ...valid, [mutation.key]: mutation.value };
    case 'hugeString':
      valid[key(mutation.field)] = 'é'.repeat(mutation.length);
      return valid;
    case 'deep': {
      let v: Json = 1;
      for (let i = 0; i < Math.min(mutation.depth, 2000); i++) v = [v];
      // Deeper than that is written as text below (JSON.stringify would recurse).
      valid[key(mutation.field)] = mutation.depth > 2000 ? `$DEEP${mutation.depth}$` : v;
      return valid;
    }
    case 'loneSurrogate':
      valid[key(mutation.field)] = 'a\ud800b';
      return valid;
  }
}

/** A value as a form or multipart field: strings as they are, anything else as JSON (as Simplex's clients send). */
const fieldText = (v: Json) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function deepText(json: string): string {
  return json.replace(/"\$DEEP(\d+)\$"/g, (_, n: string) => `${'['.repeat(Number(n))}1${']'.repeat(Number(n))}`);
}

interface Built {
  req: RawRequest;
  /** The request's framing is well-formed: it must be answered. */
  wellFramed: boolean;
  op?: Operation;
  opId?: string;
  /** The path names the operation's route for sure (no junk in it). */
  routeCertain: boolean;
  withKey: boolean;
}

function build(r: RouteRequest, ctx: { workflowId: string; sessionId: string; apiKey: string }): Built {
  const fill = (s: string) =>
    s.replaceAll('$WORKFLOW', ctx.workflowId).replaceAll('$SESSION', ctx.sessionId).replaceAll('$UUID', randomUUID());
  const opId = r.op.startsWith('path:') ? undefined : r.op;
  const op = opId ? operations[opId] : undefined;
  let path: string;
  let certain = false;
  if (op) {
    const paramValue = {
      workflow: ctx.workflowId,
      session: ctx.sessionId,
      uuid: randomUUID(),
      // A webhook delivery's id (webhook-id) that names no delivery.
      message: `msg_${randomUUID().replaceAll('-', '')}`,
      junk: encodeURIComponent(r.junk),
      traversal: '..%2F..%2Fetc%2Fpasswd',
      huge: 'a'.repeat(5000),
      encoded: '%00%ff%fe',
    }[r.param];
    certain = ['workflow', 'session', 'uuid', 'message'].includes(r.param) || !op.path.includes('{');
    path = `/api${op.path.replace(/\{\w+\}/g, paramValue)}`;
  } else {
    path = fill(r.op.slice('path:'.length));
  }
  const validQuery = op ? VALID_QUERIES[opId!] : undefined;
  const query = {
    none: '',
    valid: validQuery
      ? new URLSearchParams(Object.fromEntries(Object.entries(validQuery).map(([k, v]) => [k, fill(v)]))).toString()
      : '',
    random: new URLSearchParams(
      Object.fromEntries(Object.entries(r.randomQuery).map(([k, v]) => [k, fill(v)])),
    ).toString(),
    duplicate: 'limit=1&limit=2&session_id=a&session_id=b',
    badPercent: 'limit=%zz&cursor=%ff%fe&x=%',
    huge: `cursor=${'c'.repeat(8000)}`,
  }[r.query];
  const target = query && !path.includes('?') && path !== '*' ? `${path}?${query}` : path;

  const headers: string[] = [];
  // Two keys, the right one first, are no key: the header is then "right, wrong".
  const withKey = r.auth === 'key';
  if (withKey || r.auth === 'twice') headers.push(`X-API-Key: ${ctx.apiKey}`);
  if (r.auth === 'twice') headers.push('X-API-Key: test_wrong_key_0000000000000000');
  if (r.auth === 'wrong') headers.push(`X-API-Key: ${ctx.apiKey.slice(0, -1)}x`);
  const finalTarget =
    r.auth === 'queryKey'
      ? `${target}${target.includes('?') ? '&' : '?'}api_key=${ctx.apiKey}&x-api-key=${ctx.apiKey}`
      : target;

  let body: Buffer | undefined;
  let contentType: string | undefined;
  if (r.body.b !== 'none') {
    const value: Json =
      r.body.b === 'valid'
        ? JSON.parse(fill(JSON.stringify(mutated(opId ?? 'createWorkflow', r.body.mutation))))
        : r.body.b === 'anything'
          ? r.body.value
          : undefined;
    const object =
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, Json>)
        : { value };
    switch (r.encoding) {
      case 'json':
      case 'none':
      case 'garbage': {
        const text = r.body.b === 'text' ? r.body.text : deepText(JSON.stringify(value) ?? 'null');
        body = Buffer.from(text);
        contentType = r.encoding === 'json' ? 'application/json' : r.encoding === 'garbage' ? r.garbageType : undefined;
        break;
      }
      case 'form':
        body = Buffer.from(
          new URLSearchParams(Object.entries(object).map(([k, v]) => [k, deepText(fieldText(v))])).toString(),
        );
        contentType = 'application/x-www-form-urlencoded';
        break;
      case 'multipart':
      case 'multipartBroken': {
        const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW';
        const parts = Object.entries(object).map(
          ([k, v]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${deepText(fieldText(v))}\r\n`,
        );
        parts.push(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="../../etc/x.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`,
        );
        const text =
          parts.join('') +
          (r.encoding === 'multipart'
            ? `--${boundary}--\r\n`
            : `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\nunfinished`);
        body = Buffer.from(text);
        contentType = `multipart/form-data; boundary=${boundary}`;
        break;
      }
    }
    if (r.badBytes && body) {
      const at = Math.floor(body.length / 2);
      body = Buffer.concat([
        body.subarray(0, at),
        Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        body.subarray(at),
      ]);
    }
  }
  if (contentType !== undefined) headers.push(`Content-Type: ${contentType}`);
  let wellFramed = true;
  if (body) {
    switch (r.framing) {
      case 'exact':
        headers.push(`Content-Length: ${body.length}`);
        break;
      case 'chunked':
        headers.push('Transfer-Encoding: chunked');
        body = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
        break;
      case 'short':
        headers.push(`Content-Length: ${Math.floor(body.length / 2)}`);
        wellFramed = false;
        break;
      case 'long':
        headers.push(`Content-Length: ${body.length + 100}`);
        wellFramed = false;
        break;
      case 'both':
        headers.push(`Content-Length: ${body.length}`, 'Transfer-Encoding: chunked');
        wellFramed = false;
        break;
    }
  }
  headers.push(...r.headers);
  // Headers the HTTP parser refuses, or that change the framing, may end the connection without an answer.
  if (r.headers.some((h) => /^(X-Bad|Transfer-Encoding|Content-Encoding|Expect)/.test(h))) wellFramed = false;
  // Past the header or body limit the server answers (431, 413) without reading the rest of the body,
  // and closes: the unread bytes make that a reset, which may reach the client before the answer.
  // Without a body the answer must come.
  const headBytes =
    Buffer.byteLength(finalTarget) + headers.reduce((n, h) => n + Buffer.byteLength(h, 'latin1') + 2, 0);
  if ((headBytes > http.maxHeaderSize - 512 && body?.length) || (body?.length ?? 0) > BODY_LIMIT) wellFramed = false;
  const method = r.method === 'op' ? (op?.method.toUpperCase() ?? 'GET') : r.method;
  return {
    req: { method, target: finalTarget, headers, body },
    wellFramed,
    op,
    opId,
    routeCertain: !!op && certain && r.method === 'op',
    withKey,
  };
}

/** The 5xx statuses `op` may answer with: those it lists. */
function allowed5xx(op: Operation | undefined): number[] {
  if (!op) return [];
  return [...(op.errors ?? []), ...Object.keys(op.responses).map(Number)].filter((s) => s >= 500);
}

let cases = 0;

/** One case: a fresh workflow, the requests in order (each checked), runs they started followed to their end, then the checks every case ends with. */
export async function runRouteCase(fuzz: RouteCase, world: RouteWorld): Promise<void> {
  const svc = await world.svc.up();
  await healthy(svc);
  const made = await svc.postJson('/api/workflows', {
    name: `fuzz routes ${++cases}`,
    flow: { title: 'r', steps: [{ type: 'navigate', url: 'about:blank' }] },
  });
  check(made.status === 201, `POST /api/workflows answered ${made.status}`);
  const workflowId = ((await made.json()) as { id: string }).id;
  const port = Number(new URL(svc.url).port);
  let sessionId: string;
  let liveRun: string | undefined;
  if (fuzz.live) {
    const live = await svc.postJson('/api/workflows', { name: `fuzz live ${cases}`, flow: LIVE_FLOW });
    check(live.status === 201, `POST /api/workflows answered ${live.status}`);
    const form = new FormData();
    form.append('workflow_id', ((await live.json()) as { id: string }).id);
    const run = await svc.api('/api/run_workflow', { method: 'POST', body: form });
    check(run.status === 200, `run_workflow answered ${run.status}: ${(await run.clone().text()).slice(0, 300)}`);
    sessionId = liveRun = ((await run.json()) as { session_id: string }).session_id;
    await new Promise((r) => setTimeout(r, fuzz.liveAfterMs));
  } else {
    // A session id of this server: an ended one (the probe of the last case), or a random one.
    const sessions = (await (await svc.api('/api/sessions?limit=1')).json()) as { items: { id: string }[] };
    sessionId = sessions.items[0]?.id ?? randomUUID();
  }
  const runs: string[] = [];

  for (const r of fuzz.requests) {
    const built = build(r, { workflowId, sessionId, apiKey: world.apiKey });
    const what = `${built.req.method} ${built.req.target.slice(0, 150)} (${built.opId ?? 'no operation'})`;
    const { response, timedOut, error } = await rawRequest(port, built.req, {
      timeoutMs: 45_000,
      endAfterWrite: r.framing === 'long',
    });
    check(svc.alive, () => `after ${what}: ${svc.death()}`);
    check(!timedOut, `${what}: no answer within 45 s`);
    if (!response) {
      check(!built.wellFramed, `${what}: a well-framed request got no answer (${error ?? 'connection closed'})`);
      continue;
    }
    const { status } = response;
    if (process.env.FUZZ_DEBUG) console.log(`fuzz routes: ${what} -> ${status}`);
    if (status >= 500)
      check(
        allowed5xx(built.op).includes(status),
        `${what}: answered ${status}, which the operation does not list: ${response.body.toString('utf8').slice(0, 500)}`,
      );
    if (built.routeCertain && built.op?.auth !== false && !built.withKey)
      check(status < 200 || status >= 300, `${what}: answered ${status} without the API key`);
    const isApi = /^\/api\//.test(built.req.target);
    if (
      isApi &&
      status >= 400 &&
      built.req.method !== 'HEAD' &&
      response.body.length &&
      /json/.test(response.headers['content-type'] ?? '')
    ) {
      const parsed = ErrorBody.safeParse(
        (() => {
          try {
            return JSON.parse(response.body.toString('utf8')) as unknown;
          } catch {
            return undefined;
          }
        })(),
      );
      check(
        parsed.success,
        `${what}: answered ${status} with a body that is not the error shape: ${response.body.toString('utf8').slice(0, 300)}`,
      );
    }
    if (built.opId === 'runWorkflow' && status === 200) {
      const sid = (JSON.parse(response.body.toString('utf8')) as { session_id?: string }).session_id;
      if (sid) runs.push(sid);
    }
  }
  // The case's requests may have changed the workflow's steps before running it: the run's own count is taken.
  for (const sid of runs)
    checkRunOutcome(await untilRunEnds(svc, sid, 90_000), undefined, { interrupted: true, stopped: true });
  if (liveRun) {
    // Still paused at its pause step (or paused through the API): closed, as a person would.
    const close = await svc.api('/api/close_workflow_session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_id: liveRun }),
    });
    check(close.status === 200, `close_workflow_session of the live run answered ${close.status}`);
    const status = await untilRunEnds(svc, liveRun, 90_000);
    if (process.env.FUZZ_DEBUG)
      console.log(`fuzz routes: the live run -> ${status.status}: ${status.message.slice(0, 200)}`);
    checkRunOutcome(status, LIVE_FLOW.steps.length, { interrupted: true, stopped: true });
  }
  await afterCase(svc);
}
