import type { LanguageModel } from 'ai';
import type { Config } from '../config.ts';

export type ModelSettings = Pick<Config, 'MODEL_PROVIDER' | 'MODEL_BASE_URL' | 'MODEL_NAME' | 'MODEL_API_KEY'>;

export type ModelChoice =
  | {
      configured: true;
      /** The provider's model, made on first call (its SDK is loaded then) and the same one after. */
      model: () => Promise<LanguageModel>;
      /** provider:model, kept with each write */
      label: string;
    }
  | { configured: false; /** names the variables to set; the 503 message */ message: string };

/**
 * Pick the model from MODEL_*. Without MODEL_PROVIDER an OpenAI-compatible server is assumed,
 * since MODEL_BASE_URL alone then covers Ollama, vLLM and llama.cpp. Keys are passed
 * explicitly so a provider never falls back to OPENAI_API_KEY/ANTHROPIC_API_KEY behind our back.
 */
export function chooseModel(config: ModelSettings, fetch: typeof globalThis.fetch): ModelChoice {
  const provider = config.MODEL_PROVIDER ?? 'openai-compatible';
  const { MODEL_BASE_URL: baseURL, MODEL_NAME: modelId, MODEL_API_KEY: apiKey } = config;

  const required =
    provider === 'openai-compatible'
      ? { MODEL_BASE_URL: baseURL, MODEL_NAME: modelId }
      : { MODEL_NAME: modelId, MODEL_API_KEY: apiKey };
  const missing = Object.entries(required)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length > 0 || !modelId) {
    const message = config.MODEL_PROVIDER
      ? `The model is not fully configured for MODEL_PROVIDER=${provider}: set ${missing.join(' and ')}.`
      : 'No model is configured: set MODEL_BASE_URL and MODEL_NAME for an OpenAI-compatible server ' +
        '(Ollama, vLLM, llama.cpp), or MODEL_PROVIDER=openai or anthropic with MODEL_NAME and MODEL_API_KEY.';
    return { configured: false, message };
  }

  const label = `${provider}:${modelId}`;
  // Loaded when first used: each provider's SDK is 100 to 300 ms and 10 to 20 MB the idle server does not need.
  const make = async (): Promise<LanguageModel> => {
    switch (provider) {
      case 'openai-compatible': {
        const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
        // includeUsage asks for the final usage chunk when streaming (stream_options.include_usage).
        const p = createOpenAICompatible({ name: 'model', baseURL: baseURL!, apiKey, includeUsage: true, fetch });
        return p.chatModel(modelId);
      }
      case 'openai': {
        const { createOpenAI } = await import('@ai-sdk/openai');
        // Chat Completions rather than the Responses API: the one protocol every OpenAI-style server speaks.
        return createOpenAI({ apiKey, baseURL, fetch }).chat(modelId);
      }
      case 'anthropic': {
        const { createAnthropic } = await import('@ai-sdk/anthropic');
        return createAnthropic({ apiKey, baseURL, fetch }).messages(modelId);
      }
    }
  };
  let made: Promise<LanguageModel> | undefined;
  return { configured: true, model: () => (made ??= make()), label };
}
