import { agentToolInputs } from '../../contract/agentTools.ts';
import { isDomainError } from '../domain/errors.ts';
import { extractJson } from './extractJson.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';

/**
 * browser_extract: the server's model (MODEL_*) reads the page and answers JSON matching the
 * agent's JSON Schema, the way a run's AI extract step does (extractJson.ts: the page as an
 * accessibility snapshot without refs, which leaves the agent's snapshot and its refs alone; the
 * answer checked against the schema, one retry carrying what was wrong).
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
        const page = await kit.browsers.page(session_id);
        let object: unknown;
        try {
          object = await extractJson(choice.model, page, { instruction, schema }, signal);
        } catch (err) {
          // A model that failed (unreachable, timed out) says so itself (model/failure.ts).
          if (isDomainError(err)) throw err;
          const message = (err as Error).message;
          throw new ToolError(
            /not valid after one retry/.test(message)
              ? `The model's answer did not match the schema (${message}): retry, or make the instruction or the schema simpler`
              : message,
          );
        }
        return {
          content: [{ type: 'text', text: JSON.stringify(object) }],
          summary: `Extracted: ${instruction.slice(0, 200)}`,
        };
      },
    }),
  ];
}
