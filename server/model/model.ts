import type { Config } from '../config.ts';
import { chooseModel, type ModelChoice } from './chooseModel.ts';
import { modelFetch } from './modelFetch.ts';

/** What every call to the model is held to (MODEL_*). */
export interface ModelLimits {
  maxOutputTokens: number;
  /** Silence allowed per attempt (before the headers, between chunks): a hung model is cut, a long stream is not. */
  timeoutMs: number;
  maxRetries: number;
}

/** The one model of the process: the writer, the agent, AI steps, self-healing and browser_extract all use it. */
export interface Model {
  readonly choice: ModelChoice;
  readonly limits: ModelLimits;
  /** Ends the model's connections (after everything that calls it has stopped). */
  close(): Promise<void>;
}

type ModelConfig = Pick<
  Config,
  | 'MODEL_PROVIDER'
  | 'MODEL_BASE_URL'
  | 'MODEL_NAME'
  | 'MODEL_API_KEY'
  | 'MODEL_MAX_OUTPUT_TOKENS'
  | 'MODEL_TIMEOUT_MS'
  | 'MODEL_MAX_RETRIES'
>;

/** The model over one HTTP client with the per-attempt timeout, so every caller gets the same timeouts and retries. */
export function openModel(config: ModelConfig): Model {
  const http = modelFetch(config.MODEL_TIMEOUT_MS);
  return {
    choice: chooseModel(config, http.fetch),
    limits: {
      maxOutputTokens: config.MODEL_MAX_OUTPUT_TOKENS,
      timeoutMs: config.MODEL_TIMEOUT_MS,
      maxRetries: config.MODEL_MAX_RETRIES,
    },
    close: () => http.close(),
  };
}
