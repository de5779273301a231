import { z } from 'zod';
import { ProfileUse } from './profileUse.ts';
import { SESSION_TIMEOUT_MAX, SESSION_TIMEOUT_MIN } from './sessions.ts';
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

/** Every action can answer with the page as it is after it, saving the agent a browser_snapshot call. */
const withSnapshot = {
  snapshot: z.boolean().optional().describe('Also answer with a new snapshot of the page (cut to the default budget)'),
};

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
  browser_click: z.object({ session_id: sessionId, ...target, ...withSnapshot }).strict(),
  browser_hover: z.object({ session_id: sessionId, ...target, ...withSnapshot }).strict(),
  browser_select_option: z
    .object({
      session_id: sessionId,
      ...target,
      values: z
        .array(z.string().max(1000))
        .min(1)
        .max(100)
        .describe('The options to select, by value or label; several for a multiple select'),
      ...withSnapshot,
    })
    .strict(),
  browser_fill_form: z
    .object({
      session_id: sessionId,
      fields: z
        .array(
          z
            .object({
              ...target,
              value: z
                .string()
                .max(100_000)
                .describe(
                  'Text for a text field; "true" or "false" for a checkbox or radio; an option\'s value or label for a select',
                ),
            })
            .strict(),
        )
        .min(1)
        .max(100),
      ...withSnapshot,
    })
    .strict(),
  browser_file_upload: z
    .object({
      session_id: sessionId,
      ...target,
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
        .max(10),
      ...withSnapshot,
    })
    .strict(),
  browser_wait_for: z
    .object({
      session_id: sessionId,
      text: z.string().min(1).max(1000).optional().describe('Wait until this text shows on the page'),
      text_gone: z.string().min(1).max(1000).optional().describe('Wait until this text is gone from the page'),
      time: z
        .number()
        .min(0)
        .max(60)
        .optional()
        .describe('Wait this many seconds (alone), or at most this long for text/text_gone (default 10)'),
    })
    .strict()
    .refine((w) => w.text !== undefined || w.text_gone !== undefined || w.time !== undefined, {
      message: 'give text, text_gone or time',
    }),
  browser_type: z
    .object({
      session_id: sessionId,
      ...target,
      text: z.string().max(100_000).describe('Text to type into the element (it replaces what the field held)'),
      submit: z.boolean().optional().describe('Press Enter afterwards'),
      ...withSnapshot,
    })
    .strict(),
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
      ...withSnapshot,
    })
    .strict(),
  browser_take_screenshot: z
    .object({
      session_id: sessionId,
      full_page: z.boolean().optional().describe('The whole scrollable page instead of what the window shows'),
      ref: target.ref.optional().describe('Only this element, by its ref from the latest browser_snapshot'),
      element: target.element.optional(),
    })
    .strict(),
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
