import type { FinishReason, LanguageModelUsage } from 'ai';
import type { Log } from '../log.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { GENERATION_LIMIT_REACHED, type WriteResponse, type WritesPage } from '../../contract/write.ts';
import { Invalid, isDomainError, Unavailable } from '../domain/errors.ts';
import type { WritesRepo } from '../store/writes.ts';
import type { ModelChoice } from '../model/chooseModel.ts';
import { modelFailed } from '../model/failure.ts';
import type { Model } from '../model/model.ts';
import { countWords } from './wordCount.ts';

const SYSTEM =
  'You are a skilled writer. Write the prose the user asks for. When given notes or an outline, write ' +
  'finished prose from them, and keep to any length they ask for. Answer with the prose only.';

/** What one model call produced, before it becomes the /write body. */
interface Outcome {
  text: string;
  finishReason: FinishReason;
  usage: LanguageModelUsage;
}

// Loaded when first used: it is about 350 ms and 25 MB the idle server does not need.
const ai = () => import('ai');

const shuttingDown = () => new Unavailable(ErrorCode.shuttingDown, 'The server is shutting down; retry the request.');

/** The writing operation: one model call, the /write body, and the history of successful writes. */
export class WriteService {
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly model: Model,
    private readonly repo: WritesRepo,
    private readonly log: Log,
  ) {}

  /** Unavailable (not_configured) naming the variables to set, before anything else happens (a stream checks this before it opens). */
  ensureConfigured(): Extract<ModelChoice, { configured: true }> {
    const { choice } = this.model;
    if (!choice.configured) throw new Unavailable(ErrorCode.notConfigured, choice.message);
    return choice;
  }

  async write(prompt: string): Promise<WriteResponse> {
    const { model, label } = this.ensureConfigured();
    const started = performance.now();
    const outcome = await this.tracked(undefined, async (abortSignal): Promise<Outcome> => {
      const [{ generateText }, languageModel] = await Promise.all([ai(), model()]);
      const result = await generateText({ ...this.callSettings(prompt), model: languageModel, abortSignal });
      return { text: result.text, finishReason: result.finishReason, usage: result.totalUsage };
    });
    return this.finish(prompt, label, started, outcome);
  }

  /**
   * The same operation, handing each piece of text to onDelta as it arrives. `signal` is the
   * reader going away: the model call is cancelled and nothing is kept.
   */
  async stream(prompt: string, onDelta: (text: string) => void, signal: AbortSignal): Promise<WriteResponse> {
    const { model, label } = this.ensureConfigured();
    const started = performance.now();
    const outcome = await this.tracked(signal, async (abortSignal): Promise<Outcome> => {
      const [{ streamText }, languageModel] = await Promise.all([ai(), model()]);
      // onError: failures arrive as 'error' parts below; the default handler would print them, prompt and all.
      const result = streamText({ ...this.callSettings(prompt), model: languageModel, abortSignal, onError: () => {} });
      let text = '';
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') {
          text += part.text;
          onDelta(part.text);
        } else if (part.type === 'error') {
          throw part.error;
        } else if (part.type === 'abort') {
          abortSignal.throwIfAborted();
        } else if (part.type === 'finish') {
          return { text, finishReason: part.finishReason, usage: part.totalUsage };
        }
      }
      throw new Error('the model stream ended without a finish');
    });
    return this.finish(prompt, label, started, outcome);
  }

  /** A page of earlier writes, newest first; the cursor is opaque to clients. */
  async list(limit: number, cursor?: string): Promise<WritesPage> {
    const { items, nextBefore } = await this.repo.page(limit, cursor === undefined ? undefined : decodeCursor(cursor));
    return { items, next_cursor: nextBefore === null ? null : encodeCursor(nextBefore) };
  }

  /** Cancel every model call under way (server shutdown): /write answers 503, a stream ends with an error event. */
  abortAll(): void {
    for (const c of this.inFlight) c.abort(shuttingDown());
  }

  private callSettings(prompt: string) {
    return {
      system: SYSTEM,
      prompt,
      maxOutputTokens: this.model.limits.maxOutputTokens,
      maxRetries: this.model.limits.maxRetries,
    };
  }

  /** Run one model call that close() can cancel; its failure becomes UpstreamFailed. */
  private async tracked(
    signal: AbortSignal | undefined,
    run: (abortSignal: AbortSignal) => Promise<Outcome>,
  ): Promise<Outcome> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    const abortSignal = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
    try {
      const outcome = await run(abortSignal);
      if (outcome.finishReason === 'error') throw new Error('the model reported an error');
      return outcome;
    } catch (err) {
      if (abortSignal.aborted) throw isDomainError(abortSignal.reason) ? abortSignal.reason : err;
      const failure = await modelFailed(err, this.model.limits.timeoutMs);
      this.log.warn({ reason: failure.message }, 'writing model failed'); // never the error itself: it holds the prompt
      throw failure;
    } finally {
      this.inFlight.delete(controller);
    }
  }

  /** Build the /write body and keep the write. Only a finished (or cut) generation is stored. */
  private async finish(
    prompt: string,
    model: string,
    started: number,
    { text, finishReason, usage }: Outcome,
  ): Promise<WriteResponse> {
    const response: WriteResponse = {
      succeeded: true,
      text,
      word_count: countWords(text),
      error: finishReason === 'length' ? GENERATION_LIMIT_REACHED : null,
      usage: { input_tokens: usage.inputTokens ?? 0, output_tokens: usage.outputTokens ?? 0 },
    };
    await this.repo.insert({
      prompt,
      text,
      word_count: response.word_count,
      error: response.error,
      usage: response.usage,
      finish_reason: finishReason,
      model,
      duration_ms: Math.round(performance.now() - started),
    });
    return response;
  }
}

const encodeCursor = (seq: number) => Buffer.from(`writes:${seq}`).toString('base64url');

function decodeCursor(cursor: string): number {
  const m = /^writes:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new Invalid([{ path: 'cursor', message: "not a cursor from a previous page's next_cursor" }]);
  return Number(m[1]);
}
