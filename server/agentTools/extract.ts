import { z } from 'zod';
import { agentToolInputs } from '../../contract/agentTools.ts';
import { modelFailed } from '../model/failure.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';
import { pageOfLines } from './tokenBudget.ts';

// Loaded when first used: it is about 350 ms and 25 MB the idle server does not need.
const ai = () => import('ai');

/** What of the page the model reads at most: a long page is cut (the agent can narrow its instruction). */
const PAGE_TOKENS = 12_000;
const CALL_TIMEOUT_MS = 120_000;

/**
 * browser_extract: the server's model (MODEL_*) reads the page and answers JSON matching the
 * agent's JSON Schema. The page goes to the model as an accessibility snapshot without refs (the
 * default mode of page.ariaSnapshot, which leaves the agent's snapshot and its refs alone); the
 * schema becomes a zod schema (z.fromJSONSchema), which both asks the model for that shape and
 * checks what comes back.
 */
export function extractTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_extract',
      description:
        "Read structured data from the session's page with the server's configured model: answers JSON matching `schema` (a JSON Schema object), following `instruction`.",
      input: agentToolInputs.browser_extract,
      async run({ session_id, instruction, schema }, signal) {
        const choice = kit.deps.model.choice;
        if (!choice.configured)
          throw new ToolError(`browser_extract needs a model, and this server has none: ${choice.message}`);
        let shape: z.ZodType;
        try {
          shape = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
        } catch (err) {
          throw new ToolError(
            `schema is not a JSON Schema this server can use: ${(err as Error).message.split('\n')[0]}`,
          );
        }
        const page = await kit.browsers.page(session_id);
        const text = await page.ariaSnapshot({ timeout: 15_000 });
        const part = pageOfLines(text.split('\n'), 0, PAGE_TOKENS);
        const [{ generateObject, NoObjectGeneratedError }, model] = await Promise.all([ai(), choice.model()]);
        let object: unknown;
        try {
          ({ object } = await generateObject({
            model,
            schema: shape,
            abortSignal: AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]),
            system:
              'You read web pages and answer only with JSON matching the schema. Take values from the page as given; use null where the page does not say.',
            prompt: `Page URL: ${page.url()}\nPage (accessibility snapshot${part.to < text.split('\n').length ? ', cut' : ''}):\n${part.text}\n\nInstruction: ${instruction}`,
          }));
        } catch (err) {
          if (NoObjectGeneratedError.isInstance(err))
            throw new ToolError(
              "The model's answer did not match the schema: retry, or make the instruction or the schema simpler",
            );
          throw await modelFailed(err, CALL_TIMEOUT_MS);
        }
        return {
          content: [{ type: 'text', text: JSON.stringify(object) }],
          summary: `Extracted: ${instruction.slice(0, 200)}`,
        };
      },
    }),
  ];
}
