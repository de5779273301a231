import { z } from 'zod';
import { callerMetadata, CALLER_METADATA_MAX_CHARS, page, parseJson, utf8Length, wellFormed } from './common.ts';
import { searchablePageQuery } from './listSearch.ts';
import { defineOperations } from './operation.ts';
import { RunStatus } from './runs.ts';
import { ProfileUse } from './profileUse.ts';
import { SessionIsolation } from './isolation.ts';

export { SessionIsolation };

export const SESSION_TIMEOUT_MIN = 30;
export const SESSION_TIMEOUT_MAX = 86_400;
export const SESSION_TIMEOUT_DEFAULT = 1200;

/** True when `text` has a control character (tab included) or one of `also`: in a cookie, Chromium refuses them. */
function hasControlOr(text: string, also: string): boolean {
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || also.includes(ch)) return true;
  }
  return false;
}
/** Chromium's limits (RFC 6265bis): name plus value, and each attribute value, in bytes. */
const COOKIE_MAX_BYTES = 4096;
const COOKIE_ATTRIBUTE_MAX_BYTES = 1024;

function isCookieDomain(domain: string): boolean {
  const host = domain.replace(/^\./, '');
  if (!host) return false;
  try {
    const url = new URL(`http://${host}/`);
    return url.pathname === '/' && url.port === '' && !url.username && !url.search && !url.hash;
  } catch {
    return false;
  }
}

/**
 * One cookie of a Playwright storage state (what `context.storageState()` writes), with the rules
 * Chromium applies when the cookie is set, so a cookie it would refuse is a 422 before any browser
 * starts (and before anything is created) rather than after.
 */
export const StorageCookie = z
  .object({
    name: z.string().min(1),
    value: z.string(),
    domain: z.string().min(1),
    path: z.string().default('/'),
    /** Unix seconds; -1 (Playwright's value) for a session cookie. */
    expires: z.number().default(-1),
    httpOnly: z.boolean().default(false),
    secure: z.boolean().default(false),
    sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
  })
  .superRefine((c, ctx) => {
    const bad = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message: `cookie "${c.name}": ${message}` });
    if (hasControlOr(c.name, ';=')) bad('name', 'name must not contain control characters, ";" or "="');
    if (hasControlOr(c.value, ';')) bad('value', 'value must not contain control characters or ";"');
    if (utf8Length(c.name) + utf8Length(c.value) > COOKIE_MAX_BYTES)
      bad('value', `name and value together must be at most ${COOKIE_MAX_BYTES} bytes`);
    if (!isCookieDomain(c.domain))
      bad('domain', 'domain must be a host name or address, optionally with a leading dot');
    if (utf8Length(c.domain) > COOKIE_ATTRIBUTE_MAX_BYTES)
      bad('domain', `domain must be at most ${COOKIE_ATTRIBUTE_MAX_BYTES} bytes`);
    if (!c.path.startsWith('/')) bad('path', 'path must start with /');
    if (utf8Length(c.path) > COOKIE_ATTRIBUTE_MAX_BYTES)
      bad('path', `path must be at most ${COOKIE_ATTRIBUTE_MAX_BYTES} bytes`);
    if (c.sameSite === 'None' && !c.secure) bad('secure', 'sameSite None needs secure: true');
    const prefix = c.name.toLowerCase();
    if ((prefix.startsWith('__secure-') || prefix.startsWith('__host-')) && !c.secure)
      bad('secure', `a ${c.name.slice(0, c.name.indexOf('-') + 1)} cookie needs secure: true`);
    if (prefix.startsWith('__host-') && (c.path !== '/' || c.domain.startsWith('.')))
      bad('path', 'a __Host- cookie needs path "/" and a domain without a leading dot');
  });

/** A Playwright storage state: cookies, and localStorage by origin. */
export const StorageState = z.object({
  cookies: z.array(StorageCookie).default([]),
  origins: z
    .array(
      z.object({
        origin: z.url({ protocol: /^https?$/ }).refine((u) => new URL(u).origin === u.replace(/\/$/, ''), {
          message: 'origin must be scheme://host[:port] with no path',
        }),
        localStorage: z.array(z.object({ name: z.string(), value: z.string() })).default([]),
      }),
    )
    .default([]),
});
export type StorageState = z.infer<typeof StorageState>;

/** session_data: a string holding a Playwright storage state; parsed here so the server gets the object. */
const SessionData = z
  .string()
  .transform((s, ctx) => {
    const json = parseJson(s);
    if (!json.ok) {
      ctx.addIssue({
        code: 'custom',
        message: 'session_data must be a string holding valid JSON (a Playwright storage state)',
      });
      return z.NEVER;
    }
    const r = StorageState.safeParse(json.value);
    if (!r.success) {
      const first = r.error.issues[0]!;
      const at = first.path.length ? ` at ${first.path.join('.')}` : '';
      ctx.addIssue({
        code: 'custom',
        message: `session_data must be a Playwright storage state {cookies:[…], origins:[{origin, localStorage:[{name, value}]}]}: ${first.message}${at}`,
      });
      return z.NEVER;
    }
    return r.data;
  })
  .describe(
    'A string holding JSON session data: a Playwright storage state {cookies, origins:[{origin, localStorage}]}, applied before the URLs are handed out',
  );

/**
 * How the session's browser looks on its display (and so in vnc_url, livestream_url's page and the
 * recording). Not in the spec: an optional field Browserdesk adds, defaulting to the embed's needs.
 */
export const Presentation = z.enum(['kiosk', 'browser']);
export type Presentation = z.infer<typeof Presentation>;
export const PRESENTATION_DEFAULT: Presentation = 'kiosk';

export const CreateWorkflowSessionRequest = z
  .object({
    workflow_name: z
      .string()
      .refine((s) => s.trim().length > 0, { message: 'workflow_name must not be empty' })
      .refine((s) => s.length <= 200, { message: 'workflow_name must be at most 200 characters' })
      .check(wellFormed('workflow_name'))
      .describe('Name of the workflow: an existing one of that name, or a new empty one'),
    proxies: z
      .boolean()
      .default(false)
      .describe("Whether to use proxies (routes the browser through the server's PROXY_URL)"),
    session_data: SessionData.optional(),
    profile: ProfileUse.optional(),
    timeout: z
      .number()
      .int({ message: 'timeout must be an integer number of seconds' })
      .min(SESSION_TIMEOUT_MIN, { message: `timeout must be at least ${SESSION_TIMEOUT_MIN} seconds` })
      .max(SESSION_TIMEOUT_MAX, { message: `timeout must be at most ${SESSION_TIMEOUT_MAX} seconds` })
      .default(SESSION_TIMEOUT_DEFAULT)
      .describe('Timeout in seconds'),
    webhook_url: z
      .url({ protocol: /^https?$/, message: 'webhook_url must be an http(s) URL' })
      .optional()
      .describe('Address notified on workflow events'),
    metadata: callerMetadata('metadata')
      .optional()
      .describe(
        `A string of metadata (JSON, or any text up to ${CALLER_METADATA_MAX_CHARS} characters), passed back byte for byte in webhooks and the session's status`,
      ),
    start_url: z
      .url({ protocol: /^https?$/, message: 'start_url must be an http(s) URL' })
      .max(2048, { message: 'start_url must be at most 2048 characters' })
      .optional()
      .describe(
        "Browserdesk's own addition, optional: the address the session's first page opens before the URLs are handed out (a page that fails to load still hands the session out, showing Chromium's error page)",
      ),
    user_agent: z
      .string()
      .min(1, { message: 'user_agent must not be empty' })
      .max(512, { message: 'user_agent must be at most 512 characters' })
      .regex(/^[\x20-\x7e]+$/, { message: 'user_agent must be printable ASCII (no control characters)' })
      .optional()
      .describe(
        "Browserdesk's own addition, optional: the User-Agent every page, tab and worker of the session sends (Chromium launched with it, so such a session does not come from the warm pool)",
      ),
    isolation: SessionIsolation.optional().describe(
      "Browserdesk's own addition, optional: `context` makes the session a fresh off-the-record browser context in a browser that sessions of the same API key share (started in tens of milliseconds, cookies, storage and cache its own; see the README's Context sessions); `browser` gives it a browser of its own. Unset: the server's SESSION_ISOLATION (browser by default). A context session asked with proxies, user_agent or a profile takes a browser of its own, as the answer's isolation says",
    ),
    presentation: Presentation.default(PRESENTATION_DEFAULT).describe(
      "Browserdesk's own addition, optional: kiosk (default) shows the page alone filling the screen, with no tab strip, address bar or infobar, for embeds under your brand; browser shows Chromium's whole window, for interactive work",
    ),
  })
  .strict();
export type CreateWorkflowSessionRequest = z.input<typeof CreateWorkflowSessionRequest>;

export const CreateWorkflowSessionResponse = z.object({
  session_id: z.uuid().describe('The session identifier'),
  workflow_id: z.uuid().describe('The workflow identifier'),
  livestream_url: z.string().optional().describe('Address for viewing the live session (view only)'),
  connect_url: z.string().optional().describe('Connection address for a Chrome DevTools Protocol client'),
  vnc_url: z.string().optional().describe('VNC connection address; a plain GET is an embeddable viewer page'),
  isolation: SessionIsolation.optional().describe(
    "Browserdesk's own addition: what the session is, a browser of its own or a context in a shared one",
  ),
});
export type CreateWorkflowSessionResponse = z.infer<typeof CreateWorkflowSessionResponse>;

export const SessionStateEnum = z.enum(['starting', 'live', 'ended']);
export type SessionState = z.infer<typeof SessionStateEnum>;
export const EndReasonEnum = z.enum(['stopped', 'timed_out', 'completed', 'crashed', 'failed_to_start']);
export type EndReason = z.infer<typeof EndReasonEnum>;

export const SessionClients = z.object({
  viewers: z.number().int().min(0).describe('Live-view viewers connected now: VNC (control or view) and livestream'),
  cdp: z.number().int().min(0).describe('CDP clients connected now on connect_url'),
});
export type SessionClients = z.infer<typeof SessionClients>;

export const Session = z.object({
  id: z.uuid(),
  workflow_id: z.uuid(),
  workflow_name: z
    .string()
    .nullable()
    .describe('The name of the workflow the session works on; null once that workflow is deleted'),
  state: SessionStateEnum,
  end_reason: EndReasonEnum.nullable(),
  proxies: z.boolean(),
  isolation: SessionIsolation.describe(
    "Browserdesk's own addition: `browser`, a browser of its own; `context`, a browser context in a browser shared with other sessions of the same API key",
  ),
  timeout: z.number().int(),
  webhook_url: z.string().nullable(),
  metadata: z.string().nullable(),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  ended_at: z.iso.datetime().nullable(),
  run: z
    .object({ status: RunStatus })
    .nullable()
    .optional()
    .describe(
      "Browserdesk's own addition: the workflow run in this session, if any, and how it stands (a run's session can end completed while its run failed)",
    ),
  clients: SessionClients.nullable()
    .optional()
    .describe(
      "Browserdesk's own addition, on GET /api/sessions/{id} of a live session: who is connected to it now (counts only); null once it has ended",
    ),
});
export type Session = z.infer<typeof Session>;

/**
 * PATCH /sessions/{id}: a live session's new timeout, counted like create's from the moment the
 * session went live (so its end is that moment plus `timeout`), within create's own bounds: a
 * session lives at most SESSION_TIMEOUT_MAX seconds however often it is extended.
 */
export const UpdateSessionRequest = z
  .object({
    timeout: z
      .number({ message: 'timeout must be a number of seconds' })
      .int({ message: 'timeout must be an integer number of seconds' })
      .min(SESSION_TIMEOUT_MIN, { message: `timeout must be at least ${SESSION_TIMEOUT_MIN} seconds` })
      .max(SESSION_TIMEOUT_MAX, {
        message: `timeout must be at most ${SESSION_TIMEOUT_MAX} seconds: a session lives at most that long from going live`,
      })
      .describe(
        "The session's whole timeout in seconds, from the moment it went live: the session's timeout plus 600 gives it ten more minutes",
      ),
  })
  .strict();
export type UpdateSessionRequest = z.input<typeof UpdateSessionRequest>;

/** What GET /sessions sorts by: the start time, the workflow's name, the state, why it ended, how long it lasted. */
export const SESSION_SORT_FIELDS = ['created_at', 'workflow_name', 'state', 'end_reason', 'duration'] as const;
export type SessionSortField = (typeof SESSION_SORT_FIELDS)[number];
export const SessionsQuery = searchablePageQuery(
  SESSION_SORT_FIELDS,
  "the session's workflow name or metadata, or the start of its id",
  { state: SessionStateEnum.optional() },
);
export const SessionsPage = page(Session);
export type SessionsPage = z.infer<typeof SessionsPage>;

export const SessionParams = z.object({ id: z.uuid({ message: 'id must be a session UUID' }) });

/** Fresh capability URLs for a live session: for a second tab, a reload, or a session created through the API. */
export const SessionViews = CreateWorkflowSessionResponse.pick({
  livestream_url: true,
  connect_url: true,
  vnc_url: true,
}).required();
export type SessionViews = z.infer<typeof SessionViews>;

export const sessionOperations = defineOperations({
  createSessionViews: {
    operationId: 'createSessionViews',
    method: 'post',
    path: '/sessions/{id}/views',
    session: 'params.id',
    summary:
      'New watch, drive and CDP URLs for a live session (fresh tokens, kept hashed, dying with the session; a session keeps the 16 newest sets)',
    tags: ['sessions'],
    params: SessionParams,
    responses: { 200: { description: 'The URLs', schema: SessionViews } },
    errors: [404, 409, 422],
  },
  createWorkflowSession: {
    operationId: 'createWorkflowSession',
    method: 'post',
    path: '/create_workflow_session',
    summary: 'Start a live browser session and get its watch, drive and CDP addresses',
    tags: ['sessions'],
    startsBrowser: true,
    body: { contentTypes: ['application/json'], schema: CreateWorkflowSessionRequest },
    responses: { 200: { description: 'The session is live', schema: CreateWorkflowSessionResponse } },
    errors: [400, 401, 413, 415, 422, 429, 503],
  },
  listSessions: {
    operationId: 'listSessions',
    method: 'get',
    path: '/sessions',
    summary:
      'Sessions, newest first or in the order asked, optionally of one state, matching a search and started within a time range',
    tags: ['sessions'],
    query: SessionsQuery,
    responses: { 200: { description: 'A page of sessions', schema: SessionsPage } },
    errors: [401, 422],
  },
  getSession: {
    operationId: 'getSession',
    method: 'get',
    path: '/sessions/{id}',
    session: 'params.id',
    summary: 'One session',
    tags: ['sessions'],
    params: SessionParams,
    responses: { 200: { description: 'The session', schema: Session } },
    errors: [401, 404, 422],
  },
  updateSession: {
    operationId: 'updateSession',
    method: 'patch',
    path: '/sessions/{id}',
    session: 'params.id',
    summary:
      "Change a live session's timeout (to extend it): its end moves to the moment it went live plus the new timeout, which must still lie ahead",
    tags: ['sessions'],
    params: SessionParams,
    body: { contentTypes: ['application/json'], schema: UpdateSessionRequest },
    responses: { 200: { description: 'The session with its new timeout and expires_at', schema: Session } },
    errors: [401, 404, 409, 415, 422],
  },
  endSession: {
    operationId: 'endSession',
    method: 'delete',
    path: '/sessions/{id}',
    session: 'params.id',
    summary: 'End a session (reason stopped); ending an ended session changes nothing',
    tags: ['sessions'],
    params: SessionParams,
    responses: { 200: { description: 'The ended session', schema: Session } },
    errors: [401, 404, 422],
  },
});
