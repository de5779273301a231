/**
 * What a run asks of a model: the AI steps of a workflow (extract with an instruction, act) and
 * the repair of a step whose selectors all failed. Runs only see this interface; the agent
 * (server/agent/) implements it over the session's live browser, so runs do not import the agent,
 * which itself runs workflows through the agent tools.
 */
/** The credential values the run types, by name: redacted from whatever page text a model reads. */
export type Secrets = ReadonlyMap<string, string>;

export interface RunAi {
  /** Whether a model is configured; without one every call here fails with `unavailable`'s message. */
  available(): { ok: true } | { ok: false; message: string };
  /**
   * One model call over the page's snapshot (or the part a CSS selector names): the answer,
   * validated against `schema` (JSON Schema; one retry with the validation error), as JSON.
   * Rejects with a message a person can act on.
   */
  extract(
    sessionId: string,
    params: { instruction: string; schema?: Record<string, unknown>; selector?: string; secrets?: Secrets },
    signal: AbortSignal,
  ): Promise<unknown>;
  /** The agent, bounded to `maxSteps` tool calls, doing `instruction` in the run's session; resolves to its summary. */
  act(
    sessionId: string,
    params: { instruction: string; maxSteps: number; secrets?: Secrets },
    signal: AbortSignal,
  ): Promise<string>;
  /**
   * A click/change step none of whose selectors matched: the selectors of the element it meant,
   * found by the model from a snapshot and what the step recorded (its aria and text selectors),
   * checked to match exactly one element; null when there is none.
   */
  heal(
    sessionId: string,
    step: { type: string; selectors: unknown[]; secrets?: Secrets },
    signal: AbortSignal,
  ): Promise<string[][] | null>;
}
