import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';
import { locateTarget } from './targets.ts';
import { withinOr } from '../domain/within.ts';

/** Characters of the JSON result an answer carries; a longer one is cut, with its size said. */
export const EVALUATE_RESULT_MAX = 100_000;
/** How long the function may run: past it, its script is stopped (Runtime.terminateExecution). */
const EVALUATE_TIMEOUT_MS = 10_000;

interface PageAnswer {
  size?: unknown;
  text?: unknown;
  threw?: unknown;
}

/**
 * The expression the page runs: the caller's function called (with the element, when one is named,
 * handed over on a random window key), awaited, and made JSON in the page itself, cycles and
 * BigInts and DOM nodes said in words, cut to EVALUATE_RESULT_MAX there. So a 50 MB result never
 * crosses the CDP connection: only its first 100,000 characters and its size do.
 */
function expressionFor(fn: string, elementKey: string | null): string {
  const key = JSON.stringify(elementKey);
  return `(async () => {
  const key = ${key};
  const element = key === null ? undefined : window[key];
  if (key !== null) delete window[key];
  let value;
  try {
    value = await (${fn}
    )(element);
  } catch (e) {
    return { threw: String((e && e.stack) || e).slice(0, 2000) };
  }
  if (value === undefined) return { size: 9, text: 'undefined' };
  const seen = new WeakSet();
  let text;
  try {
    text = JSON.stringify(value, (k, v) => {
      if (typeof v === 'bigint') return v.toString() + 'n';
      if (typeof v === 'function') return '[function]';
      if (typeof v === 'symbol') return v.toString();
      if (v && typeof v === 'object') {
        if (typeof Node === 'function' && v instanceof Node) return '[' + v.nodeName.toLowerCase() + ' node]';
        if (seen.has(v)) return '[seen above]';
        seen.add(v);
      }
      return v;
    });
  } catch (e) {
    return { threw: 'the result could not be made JSON: ' + String(e).slice(0, 500) };
  }
  if (text === undefined) text = String(value);
  return { size: text.length, text: text.length > ${EVALUATE_RESULT_MAX} ? text.slice(0, ${EVALUATE_RESULT_MAX}) : text };
})()`;
}

/**
 * browser_evaluate: the caller's JavaScript in the session's page, over the tools' own Playwright
 * connection, a channel of the session's CDP hub, so under its policy like any client's script;
 * the page's own origin and the browser's egress rules bound what it can reach. Its `evaluate`
 * capability must be asked for (/api/mcp?caps=evaluate), and the built-in agent gets it only with
 * AGENT_ALLOW_EVALUATE.
 */
export function evaluateTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_evaluate',
      capability: 'evaluate',
      description: `Run a JavaScript function in the session's page and answer its result as JSON (at most ${EVALUATE_RESULT_MAX.toLocaleString('en')} characters: a longer one is cut and its size said; cycles and DOM nodes are named in words). "() => document.title", or with target (a ref or a CSS selector matching one element), "(element) => element.value". It may be async; it is stopped after ${EVALUATE_TIMEOUT_MS / 1000} s. It runs as the page's own script: the page's origin and the session's network rules apply.`,
      input: agentToolInputs.browser_evaluate,
      async run({ session_id, function: fn, target, ref, element }) {
        const page = await kit.browsers.page(session_id);
        let frame = page.mainFrame();
        let key: string | null = null;
        let label = '';
        if (target !== undefined || ref !== undefined) {
          const located = await locateTarget(kit, session_id, page, { target, ref, element });
          label = ` on ${located.label}`;
          key = `__browserdesk_${Math.random().toString(36).slice(2)}`;
          const handle = await located.locator.elementHandle({ timeout: 5_000 });
          frame = (await handle.ownerFrame()) ?? frame;
          await handle.evaluate((el, k) => ((window as unknown as Record<string, unknown>)[k] = el), key);
          await handle.dispose();
        }
        // Attached before the function runs: a page whose main thread a busy loop holds answers no
        // new attach, while Runtime.terminateExecution on a session already there still gets through.
        const cdp = await page.context().newCDPSession(page);
        let answer: PageAnswer | 'timeout';
        try {
          const evaluated = frame.evaluate(expressionFor(fn, key)) as Promise<PageAnswer>;
          answer = await withinOr(evaluated, EVALUATE_TIMEOUT_MS, 'timeout' as const);
          // A busy loop holds the page's main thread: stop it, so the page (and the live view) go on.
          if (answer === 'timeout') await cdp.send('Runtime.terminateExecution').catch(() => undefined);
        } catch (err) {
          throw new ToolError(`The function did not run: ${(err as Error).message.split('\n')[0]!.slice(0, 1000)}`);
        } finally {
          await cdp.detach().catch(() => undefined);
        }
        if (answer === 'timeout')
          throw new ToolError(`The function did not finish within ${EVALUATE_TIMEOUT_MS / 1000} s: it was stopped`);
        if (typeof answer?.threw === 'string') throw new ToolError(`The function threw: ${answer.threw}`);
        // The page's own scripts could have replaced JSON.stringify or slice: the answer is bounded here too.
        const text = typeof answer?.text === 'string' ? answer.text : JSON.stringify(answer ?? null);
        const size = typeof answer?.size === 'number' ? answer.size : text.length;
        const cut = text.length > EVALUATE_RESULT_MAX || size > EVALUATE_RESULT_MAX;
        const shown = text.slice(0, EVALUATE_RESULT_MAX);
        return {
          content: [
            {
              type: 'text',
              text: cut
                ? `${shown}\n\n[The result is ${size.toLocaleString('en')} characters of JSON: only the first ${EVALUATE_RESULT_MAX.toLocaleString('en')} are shown]`
                : shown,
            },
          ],
          summary: `Evaluated a function of ${fn.length} characters${label} (${size} characters of result)`,
        };
      },
    }),
  ];
}
