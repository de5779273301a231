import { z } from 'zod';
import { ProfileUse } from './profileUse.ts';
import { SESSION_TIMEOUT_MAX, SESSION_TIMEOUT_MIN, SessionIsolation } from './sessions.ts';
import { nestsDeeperThan, tooDeepMessage, webUrl, wellFormed } from './common.ts';

/**
 * The input of each browser tool an AI agent calls (over MCP at /api/mcp, or the built-in agent):
 * one zod schema per tool, turned into JSON Schema for the wire. Names and fields follow Microsoft's
 * playwright-mcp (`browser_click {element, ref}`), so agents already know them. Every object is
 * strict: a misspelt field is an error the agent reads, not a silent default.
 */

const sessionId = z
  .uuid({ message: 'session_id must be a session UUID (from session_create or session_list)' })
  .describe('The session to act on');

/** What names an element for a person (as in the snapshot) and for the service (its ref). */
const target = {
  element: z
    .string()
    .min(1)
    .max(500)
    .check(wellFormed('element'))
    .describe('What the element is, in words, as the snapshot shows it (for the session log)'),
  ref: z
    .string()
    .min(1)
    .max(100)
    .describe('The element\'s ref from the latest browser_snapshot of this session, e.g. "k3f9ab-e5"'),
};

/**
 * playwright-mcp 0.0.83's way of naming the element an action is on: `target`, a ref from the
 * snapshot or a CSS selector that matches exactly one element, and `element` optional. `ref`, our
 * older name, is its alias: either may be given, both only when they agree.
 */
const actionTarget = {
  target: z
    .string()
    .min(1)
    .max(1000)
    .check(wellFormed('target'))
    .optional()
    .describe(
      'The element: its ref from the latest browser_snapshot (e.g. "k3f9ab-e5"), or a CSS selector that matches exactly one element on the page (e.g. "#email")',
    ),
  element: target.element.optional(),
  ref: target.ref.optional().describe('The older name of target (a ref, or a CSS selector): give one of the two'),
};

/** The check every action with an actionTarget gets: one element named, once. */
const oneTarget =
  (what = '') =>
  (value: { target?: string | undefined; ref?: string | undefined }, ctx: z.RefinementCtx) => {
    if (value.target === undefined && value.ref === undefined)
      ctx.addIssue({ code: 'custom', message: `give ${what}target (a ref from browser_snapshot or a CSS selector)` });
    else if (value.target !== undefined && value.ref !== undefined && value.target !== value.ref)
      ctx.addIssue({ code: 'custom', message: `${what}target and ${what}ref name different elements: give one` });
  };

/** `paths` of playwright-mcp: here, names of the session's own downloads (the server is not the caller's machine). */
const downloadedNames = z.array(z.string().min(1).max(200)).min(1).max(10).optional();

/** The modifier keys playwright-mcp's browser_click holds while it clicks. */
export const CLICK_MODIFIERS = ['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'] as const;

/** Every action can answer with the page as it is after it, saving the agent a browser_snapshot call. */
const withSnapshot = {
  snapshot: z.boolean().optional().describe('Also answer with a new snapshot of the page (cut to the default budget)'),
};

/** The field kinds of playwright-mcp's browser_fill_form items. */
export const FORM_FIELD_TYPES = ['textbox', 'checkbox', 'radio', 'combobox', 'slider'] as const;

/** The longest function text browser_evaluate takes. */
export const EVALUATE_FUNCTION_MAX = 100_000;

export const SNAPSHOT_MAX_TOKENS_DEFAULT = 8000;
export const SNAPSHOT_MAX_TOKENS_MIN = 200;
export const SNAPSHOT_MAX_TOKENS_MAX = 100_000;

export const agentToolInputs = {
  session_create: z
    .object({
      workflow_name: z
        .string()
        .min(1)
        .max(200)
        .check(wellFormed('workflow_name'))
        .optional()
        .describe('The workflow the session works on (created empty when new); default "Agent session"'),
      start_url: webUrl('start_url').optional(),
      timeout: z
        .number()
        .int()
        .min(SESSION_TIMEOUT_MIN)
        .max(SESSION_TIMEOUT_MAX)
        .optional()
        .describe('Seconds the session lives; default 1200'),
      proxies: z
        .boolean()
        .optional()
        .describe("Route the browser through the server's PROXY_URL (refused when it has none)"),
      profile: ProfileUse.optional(),
      isolation: SessionIsolation.optional().describe(
        "context: a browser context in a browser this API key's sessions share (starts in milliseconds); browser: a browser of its own. Default: the server's SESSION_ISOLATION",
      ),
    })
    .strict(),
  session_close: z.object({ session_id: sessionId }).strict(),
  session_list: z
    .object({
      limit: z.number().int().min(1).max(100).optional().describe('At most this many, newest first; default 20'),
    })
    .strict(),
  session_status: z.object({ session_id: sessionId }).strict(),
  browser_navigate: z.object({ session_id: sessionId, url: webUrl('url') }).strict(),
  browser_back: z.object({ session_id: sessionId }).strict(),
  browser_snapshot: z
    .object({
      session_id: sessionId,
      max_tokens: z
        .number()
        .int()
        .min(SNAPSHOT_MAX_TOKENS_MIN)
        .max(SNAPSHOT_MAX_TOKENS_MAX)
        .optional()
        .describe(
          `Most tokens (o200k_base) the answer may take; default ${SNAPSHOT_MAX_TOKENS_DEFAULT}. A longer page is cut, with a cursor to the next part`,
        ),
      cursor: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe('The cursor a previous, cut snapshot answered with: its next part (the same snapshot, same refs)'),
      selector: z
        .string()
        .min(1)
        .max(1000)
        .check(wellFormed('selector'))
        .optional()
        .describe(
          'A CSS selector, e.g. "form#checkout" or "main": only the first element it matches and what is inside it (the refs work as in a whole-page snapshot)',
        ),
      interactive_only: z
        .boolean()
        .optional()
        .describe(
          'Only what can be acted on (links, buttons, text fields, checkboxes, radios, selects and their options, menu items, tabs, sliders, switches), with the headings between them: a short snapshot of a long page',
        ),
      depth: z
        .number()
        .int()
        .min(1)
        .max(100)
        .optional()
        .describe(
          'Only this many levels of the tree from the top, as in playwright-mcp: a short outline of a deep page',
        ),
    })
    .strict(),
  browser_click: z
    .object({
      session_id: sessionId,
      ...actionTarget,
      doubleClick: z.boolean().optional().describe('A double click instead of a single one'),
      button: z.enum(['left', 'right', 'middle']).optional().describe('The mouse button; default left'),
      modifiers: z
        .array(z.enum(CLICK_MODIFIERS))
        .max(5)
        .optional()
        .describe('Keys held while clicking (ControlOrMeta is Control here: the browser runs on Linux)'),
      ...withSnapshot,
    })
    .strict()
    .superRefine(oneTarget()),
  browser_hover: z
    .object({ session_id: sessionId, ...actionTarget, ...withSnapshot })
    .strict()
    .superRefine(oneTarget()),
  browser_select_option: z
    .object({
      session_id: sessionId,
      ...actionTarget,
      values: z
        .array(z.string().max(1000))
        .min(1)
        .max(100)
        .describe('The options to select, by value or label; several for a multiple select'),
      ...withSnapshot,
    })
    .strict()
    .superRefine(oneTarget()),
  browser_fill_form: z
    .object({
      session_id: sessionId,
      fields: z
        .array(
          z
            .object({
              ...actionTarget,
              name: z
                .string()
                .min(1)
                .max(500)
                .check(wellFormed('name'))
                .optional()
                .describe("The field's name in words, as playwright-mcp's items have it (for the session log)"),
              type: z
                .enum(FORM_FIELD_TYPES)
                .optional()
                .describe('What kind of field it is; read from the page when left out'),
              value: z
                .string()
                .max(100_000)
                .describe(
                  'Text for a text field; "true" or "false" for a checkbox or radio; an option\'s value or label for a select (combobox); a number for a slider',
                ),
            })
            .strict()
            .superRefine(oneTarget()),
        )
        .min(1)
        .max(100),
      ...withSnapshot,
    })
    .strict(),
  browser_file_upload: z
    .object({
      session_id: sessionId,
      ...actionTarget,
      paths: downloadedNames.describe(
        'Names of files this session downloaded, as downloads_list lists them (e.g. "report.pdf"). Not paths of your machine: the server cannot read those; send their bytes as files instead',
      ),
      files: z
        .array(
          z
            .object({
              name: z
                .string()
                .min(1)
                .max(200)
                .refine(
                  (n) => n !== '.' && n !== '..' && !/[/\\]/.test(n) && ![...n].some((c) => c.charCodeAt(0) < 0x20),
                  {
                    message: 'name must be a plain file name (no path, no control characters)',
                  },
                )
                .describe("The file's name, as the page will see it"),
              content_base64: z
                .base64({ message: 'content_base64 must be base64' })
                .max(700_000)
                .describe("The file's bytes, base64 (the request is at most 1 MiB)"),
            })
            .strict(),
        )
        .min(1)
        .max(10)
        .optional(),
      ...withSnapshot,
    })
    .strict()
    .superRefine(oneTarget())
    .refine((u) => (u.paths?.length ?? 0) + (u.files?.length ?? 0) > 0, { message: 'give files (base64) or paths' })
    .refine((u) => (u.paths?.length ?? 0) + (u.files?.length ?? 0) <= 10, { message: 'at most 10 files in all' }),
  browser_wait_for: z
    .object({
      session_id: sessionId,
      text: z.string().min(1).max(1000).optional().describe('Wait until this text shows on the page'),
      text_gone: z.string().min(1).max(1000).optional().describe('Wait until this text is gone from the page'),
      textGone: z.string().min(1).max(1000).optional().describe("The same as text_gone (playwright-mcp's name)"),
      time: z
        .number()
        .min(0)
        .max(60)
        .optional()
        .describe('Wait this many seconds (alone), or at most this long for text/text_gone (default 10)'),
    })
    .strict()
    .refine(
      (w) => w.text !== undefined || w.text_gone !== undefined || w.textGone !== undefined || w.time !== undefined,
      { message: 'give text, textGone (text_gone) or time' },
    )
    .refine((w) => w.text_gone === undefined || w.textGone === undefined || w.text_gone === w.textGone, {
      message: 'textGone and text_gone differ: give one',
    }),
  browser_type: z
    .object({
      session_id: sessionId,
      ...actionTarget,
      text: z.string().max(100_000).describe('Text to type into the element (it replaces what the field held)'),
      submit: z.boolean().optional().describe('Press Enter afterwards'),
      slowly: z
        .boolean()
        .optional()
        .describe(
          'Type one character at a time, with key events for each (for pages that react to keys); at most 2,000 characters',
        ),
      ...withSnapshot,
    })
    .strict()
    .superRefine(oneTarget())
    .refine((t) => !t.slowly || t.text.length <= 2000, { message: 'slowly types at most 2,000 characters' }),
  browser_press_key: z
    .object({
      session_id: sessionId,
      key: z
        .string()
        .min(1)
        .max(50)
        .regex(/^[\w+\-=[\];',./`\\ ]+$/, {
          message: 'key must be a key name such as Enter, ArrowDown, a or Control+a',
        })
        .describe('A key name such as Enter, ArrowLeft, a, or a combination such as Control+a'),
      target: actionTarget.target.describe(
        'Press it in this element (a ref or a CSS selector matching one element); left out: where the focus is',
      ),
      element: actionTarget.element,
      ...withSnapshot,
    })
    .strict(),
  browser_take_screenshot: z
    .object({
      session_id: sessionId,
      full_page: z.boolean().optional().describe('The whole scrollable page instead of what the window shows'),
      fullPage: z.boolean().optional().describe("The same as full_page (playwright-mcp's name)"),
      target: actionTarget.target.describe(
        'Only this element: its ref from the latest browser_snapshot or a CSS selector matching one element',
      ),
      ref: target.ref.optional().describe('The older name of target'),
      element: target.element.optional(),
      type: z
        .enum(['jpeg', 'png'])
        .optional()
        .describe('Accepted for playwright-mcp clients; the answer is always a JPEG (smaller for the model)'),
    })
    .strict()
    .refine((s) => s.target === undefined || s.ref === undefined || s.target === s.ref, {
      message: 'target and ref name different elements: give one',
    })
    .refine((s) => s.full_page === undefined || s.fullPage === undefined || s.full_page === s.fullPage, {
      message: 'fullPage and full_page differ: give one',
    }),
  session_handoff: z
    .object({
      session_id: sessionId,
      message: z
        .string()
        .min(1)
        .max(1000)
        .check(wellFormed('message'))
        .describe('What the person should do, e.g. "Type the code sent to your phone, then press Resume"'),
    })
    .strict(),
  session_resume: z.object({ session_id: sessionId }).strict(),
  recorder_start: z.object({ session_id: sessionId }).strict(),
  recorder_read: z.object({ session_id: sessionId }).strict(),
  recorder_stop: z.object({ session_id: sessionId }).strict(),
  downloads_list: z.object({ session_id: sessionId }).strict(),
  run_workflow: z
    .object({
      workflow_id: z.uuid({ message: 'workflow_id must be a workflow UUID (search_workflows finds them)' }),
      variables: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .refine((v) => Object.keys(v).length <= 200, { message: 'at most 200 variables' })
        .optional()
        .describe("Values of the workflow's variables by name"),
    })
    .strict(),
  search_workflows: z
    .object({
      name: z
        .string()
        .max(200)
        .check(wellFormed('name'))
        .optional()
        .describe("Part of the workflow's name, any case; omitted: the newest workflows"),
    })
    .strict(),
  browser_extract: z
    .object({
      session_id: sessionId,
      instruction: z
        .string()
        .min(1)
        .max(4000)
        .check(wellFormed('instruction'))
        .describe('What to read from the page, e.g. "the order total and its currency"'),
      schema: z
        .record(z.string(), z.unknown())
        .refine((s) => !nestsDeeperThan(s, 20), { message: tooDeepMessage('schema', 20) })
        .refine((s) => JSON.stringify(s).length <= 20_000, {
          message: 'schema must be at most 20,000 characters of JSON',
        })
        .describe('A JSON Schema (an object) the answer must match'),
    })
    .strict(),
  // playwright-mcp 0.0.83's tools (issue 36): its names and argument shapes.
  browser_navigate_back: z.object({ session_id: sessionId }).strict(),
  browser_evaluate: z
    .object({
      session_id: sessionId,
      function: z
        .string()
        .min(1)
        .max(EVALUATE_FUNCTION_MAX)
        .check(wellFormed('function'))
        .describe(
          'A JavaScript function, as text: "() => document.title", or "(element) => element.value" with target. It may be async',
        ),
      target: actionTarget.target.describe(
        'The element the function is called with: a ref from the latest browser_snapshot or a CSS selector matching one element',
      ),
      ref: actionTarget.ref,
      element: actionTarget.element,
    })
    .strict()
    .refine((e) => e.target === undefined || e.ref === undefined || e.target === e.ref, {
      message: 'target and ref name different elements: give one',
    }),
  browser_drag: z
    .object({
      session_id: sessionId,
      startTarget: actionTarget.target.describe('The element to drag: a ref or a CSS selector matching one element'),
      startElement: actionTarget.element,
      startRef: target.ref.optional().describe('The older name of startTarget'),
      endTarget: actionTarget.target.describe('Where to drop it: a ref or a CSS selector matching one element'),
      endElement: actionTarget.element,
      endRef: target.ref.optional().describe('The older name of endTarget'),
      ...withSnapshot,
    })
    .strict()
    .superRefine((d, ctx) => {
      oneTarget('start')({ target: d.startTarget, ref: d.startRef }, ctx);
      oneTarget('end')({ target: d.endTarget, ref: d.endRef }, ctx);
    }),
  browser_drop: z
    .object({
      session_id: sessionId,
      ...actionTarget,
      paths: downloadedNames.describe(
        'Names of files this session downloaded, as downloads_list lists them, to drop as files. Not paths of your machine: the server cannot read those',
      ),
      data: z
        .record(
          z
            .string()
            .min(1)
            .max(100)
            .regex(/^[\w.+-]+\/[\w.+-]+$/, { message: 'data keys must be MIME types such as text/plain' }),
          z.string().max(100_000),
        )
        .refine((d) => Object.keys(d).length <= 10, { message: 'at most 10 MIME types' })
        .optional()
        .describe('MIME type to text, e.g. {"text/plain": "hello", "text/uri-list": "https://example.com"}'),
      ...withSnapshot,
    })
    .strict()
    .superRefine(oneTarget())
    .refine((d) => (d.paths?.length ?? 0) > 0 || Object.keys(d.data ?? {}).length > 0, {
      message: 'give paths, data or both: what to drop',
    }),
  browser_find: z
    .object({
      session_id: sessionId,
      text: z.string().min(1).max(500).check(wellFormed('text')).optional().describe('Text to find, any case'),
      regex: z
        .string()
        .min(1)
        .max(500)
        .check(wellFormed('regex'))
        .optional()
        .describe('A JavaScript regular expression to find (without slashes), e.g. "Order #\\d+"; case-insensitive'),
    })
    .strict()
    .refine((f) => (f.text === undefined) !== (f.regex === undefined), { message: 'give text or regex (one of them)' }),
  browser_emulate_media: z
    .object({
      session_id: sessionId,
      media: z.enum(['screen', 'print']).nullable().optional().describe('CSS media type; null: back to the default'),
      colorScheme: z
        .enum(['light', 'dark', 'no-preference'])
        .nullable()
        .optional()
        .describe('prefers-color-scheme; null: back to the default'),
      reducedMotion: z
        .enum(['reduce', 'no-preference'])
        .nullable()
        .optional()
        .describe('prefers-reduced-motion; null: back to the default'),
      forcedColors: z
        .enum(['active', 'none'])
        .nullable()
        .optional()
        .describe('forced-colors; null: back to the default'),
    })
    .strict()
    .refine(
      (m) =>
        m.media !== undefined ||
        m.colorScheme !== undefined ||
        m.reducedMotion !== undefined ||
        m.forcedColors !== undefined,
      { message: 'give media, colorScheme, reducedMotion or forcedColors' },
    ),
  browser_pdf_save: z
    .object({
      session_id: sessionId,
      filename: z
        .string()
        .min(1)
        .max(100)
        .regex(/^[\w][\w .()-]*\.pdf$/i, {
          message: 'filename must be a plain file name ending in .pdf (letters, digits, spaces, . _ - ( ))',
        })
        .optional()
        .describe("The name in the session's downloads; default page-<time>.pdf"),
    })
    .strict(),
  browser_resize: z
    .object({
      session_id: sessionId.optional(),
      width: z.number().optional(),
      height: z.number().optional(),
    })
    .strict(),
  browser_run_code_unsafe: z
    .object({ session_id: sessionId.optional(), code: z.string().max(100_000).optional() })
    .strict(),
  browser_console_messages: z
    .object({
      session_id: sessionId,
      level: z
        .enum(['error', 'warning', 'info', 'debug'])
        .optional()
        .describe('The least severe level to answer; each includes the more severe ones. Default "info"'),
      all: z
        .boolean()
        .optional()
        .describe('Every message since the session started, not only those since the last navigation'),
    })
    .strict(),
  browser_network_requests: z.object({ session_id: sessionId }).strict(),
  browser_network_request: z
    .object({
      session_id: sessionId,
      index: z
        .number()
        .int()
        .min(1)
        .max(1_000_000_000)
        .describe("The request's index, as browser_network_requests lists it"),
      part: z
        .enum(['request-headers', 'request-body', 'response-headers', 'response-body'])
        .optional()
        .describe('Only this part; omitted: the request and response line, timing and both sets of headers'),
    })
    .strict(),
  browser_tabs: z
    .object({
      session_id: sessionId,
      action: z
        .enum(['list', 'new', 'select', 'close'])
        .describe('list the tabs; open a new one; select one (the tab every other tool acts on); close one'),
      index: z
        .number()
        .int()
        .min(0)
        .max(1000)
        .optional()
        .describe('The tab, as list numbers them from 0: required to select; to close, the selected one by default'),
    })
    .strict()
    .refine((t) => t.action !== 'select' || t.index !== undefined, { message: 'select needs index' }),
  browser_close: z.object({ session_id: sessionId }).strict(),
  browser_handle_dialog: z
    .object({
      session_id: sessionId,
      accept: z.boolean().describe('true: OK; false: Cancel'),
      promptText: z
        .string()
        .max(10_000)
        .optional()
        .describe('For a prompt: the text to answer with (its default value when omitted)'),
    })
    .strict(),
} satisfies Record<string, z.ZodObject>;

export type AgentToolName = keyof typeof agentToolInputs;
export type AgentToolInput<N extends AgentToolName> = z.output<(typeof agentToolInputs)[N]>;
