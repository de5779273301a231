import type { ModelMessage } from 'ai';
import type { Page } from 'playwright-core';
import type { RunAi, Secrets } from '../runs/ai.ts';
import type { SessionSnapshots } from '../agentTools/snapshots.ts';
import { askModel, checkJson, DATA_RULE, extractJson, pageText } from '../agentTools/extractJson.ts';
import type { Model } from '../model/model.ts';
import { selectorsOf } from './elementSelectors.ts';

export interface RunAiDeps {
  /** The server's one model (MODEL_*). */
  model: Model;
  /** The session's page, as the agent tools reach it (agentTools' SessionBrowsers.page). */
  page(sessionId: string): Promise<Page>;
  /** The agent tools' snapshots: heal's refs are theirs (a snapshot with refs, and a ref back to Playwright's). */
  snapshots: Pick<SessionSnapshots, 'take' | 'resolve'>;
  /** The agent, bounded to maxSteps tool calls, in the session; resolves to its summary. Left out: act steps fail saying so. */
  act?: (
    sessionId: string,
    instruction: string,
    maxSteps: number,
    signal: AbortSignal,
    /** The run's credential values, redacted from all the agent reads (it types its own through placeholders). */
    secrets: Secrets,
  ) => Promise<string>;
}

/**
 * The RunAi (runs/ai.ts) over a session's live browser: a run's AI extract and act steps, and
 * the repair of a step whose selectors all failed (self-healing).
 */
export class AgentRunAi implements RunAi {
  constructor(private readonly deps: RunAiDeps) {}

  available(): { ok: true } | { ok: false; message: string } {
    const choice = this.deps.model.choice;
    return choice.configured ? { ok: true } : { ok: false, message: choice.message };
  }

  /** A run's AI extract step: the page read with the model, the one way (agentTools/extractJson.ts). */
  async extract(
    sessionId: string,
    params: { instruction: string; schema?: Record<string, unknown>; selector?: string; secrets?: Secrets },
    signal: AbortSignal,
  ): Promise<unknown> {
    const model = this.modelOrThrow();
    return extractJson(model, await this.deps.page(sessionId), params, signal);
  }

  async act(
    sessionId: string,
    params: { instruction: string; maxSteps: number; secrets?: Secrets },
    signal: AbortSignal,
  ): Promise<string> {
    this.modelOrThrow();
    if (!this.deps.act) throw new Error('act steps are not available on this server yet (no agent to run them)');
    return this.deps.act(sessionId, params.instruction, params.maxSteps, signal, params.secrets ?? new Map());
  }

  /**
   * A snapshot with refs and what the step recorded (its aria and text selectors name the element
   * as a person sees it) → the model picks a ref, or null → that element, which must be one →
   * its Recorder selectors (elementSelectors.ts). Null when the model finds none.
   */
  async heal(
    sessionId: string,
    step: { type: string; selectors: unknown[]; secrets?: Secrets },
    signal: AbortSignal,
  ): Promise<string[][] | null> {
    const model = this.modelOrThrow();
    const page = await this.deps.page(sessionId);
    const snapshot = await this.deps.snapshots.take(sessionId, page);
    const text = await pageText(snapshot.lines.join('\n'), step.secrets);
    const recorded = step.selectors.map((s) => (Array.isArray(s) ? s.join(' >>> ') : String(s)));
    const named = recorded.filter((s) => s.startsWith('aria/') || s.startsWith('text/'));
    const system = `You find the element a recorded browser step meant on a page that has changed. ${DATA_RULE} Answer with JSON only: {"ref":"<the element's ref from the snapshot>"}, or {"ref":null} when no element on the page is the one meant.`;
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content:
          `A recorded "${step.type}" step no longer finds its element: none of its selectors matches.\n` +
          (named.length
            ? `What it recorded of the element (aria = role and accessible name, text = its text):\n${named.map((s) => `- ${s}`).join('\n')}\n`
            : '') +
          `All its selectors:\n${recorded.map((s) => `- ${s}`).join('\n')}\n\n` +
          `Page URL: ${page.url()}\n<page>\n${text}\n</page>\n\nWhich element is it?`,
      },
    ];
    const answer = await askModel(model, system, messages, signal);
    const checked = checkJson(answer, undefined);
    if (!checked.ok) throw new Error(`the model's answer was not JSON: ${checked.problem}`);
    const ref = (checked.value as { ref?: unknown } | null)?.ref;
    if (ref === null || ref === undefined) return null;
    if (typeof ref !== 'string') throw new Error('the model answered a ref that is not a string');
    let playwrightRef: string;
    try {
      playwrightRef = this.deps.snapshots.resolve(sessionId, ref);
    } catch {
      throw new Error(
        `the model answered ref ${JSON.stringify(ref.slice(0, 50))}, which is not in the page's snapshot`,
      );
    }
    const target = page.locator(`aria-ref=${playwrightRef}`);
    if ((await target.count()) !== 1) return null;
    const selectors = await selectorsOf(target);
    return selectors.length ? selectors : null;
  }

  private modelOrThrow() {
    const choice = this.deps.model.choice;
    if (!choice.configured) throw new Error(choice.message);
    return choice.model;
  }
}
