import type { LanguageModel } from 'ai';
import type { Config } from '../config.ts';

type WriterConfig = Pick<Config, 'WRITER_PROVIDER' | 'WRITER_BASE_URL' | 'WRITER_MODEL' | 'WRITER_API_KEY'>;

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
 * Pick the writing model from WRITER_*. Without WRITER_PROVIDER an OpenAI-compatible server is
 * assumed, since WRITER_BASE_URL alone then covers Ollama, vLLM and llama.cpp. Keys are passed
 * explicitly so a provider never falls back to OPENAI_API_KEY/ANTHROPIC_API_KEY behind our back.
 */
export function chooseModel(config: WriterConfig, fetch: typeof globalThis.fetch): ModelChoice {
  const provider = config.WRITER_PROVIDER ?? 'openai-compatible';
  const { WRITER_BASE_URL: baseURL, WRITER_MODEL: modelId, WRITER_API_KEY: apiKey } = config;

  const required =
    provider === 'openai-compatible'
      ? { WRITER_BASE_URL: baseURL, WRITER_MODEL: modelId }
      : { WRITER_MODEL: modelId, WRITER_API_KEY: apiKey };
  const missing = Object.entries(required)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length > 0 || !modelId) {
    const message = config.WRITER_PROVIDER
      ? `The writing model is not fully configured for WRITER_PROVIDER=${provider}: set ${missing.join(' and ')}.`
      : 'No writing model is configured: set WRITER_BASE_URL and WRITER_MODEL for an OpenAI-compatible server ' +
        '(Ollama, vLLM, llama.cpp), or WRITER_PROVIDER=openai or anthropic with WRITER_MODEL and WRITER_API_KEY.';
    return { configured: false, message };
  }

  const label = `${provider}:${modelId}`;
  // Loaded when first used: each provider's SDK is 100 to 300 ms and 10 to 20 MB the idle server does not need.
  const make = async (): Promise<LanguageModel> => {
    switch (provider) {
      case 'openai-compatible': {
        const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
        // includeUsage asks for the final usage chunk when streaming (stream_options.include_usage).
        const p = createOpenAICompatible({ name: 'writer', baseURL: baseURL!, apiKey, includeUsage: true, fetch });
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
