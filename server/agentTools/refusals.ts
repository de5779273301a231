import { agentToolInputs } from '../../contract/agentTools.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';

/**
 * playwright-mcp's browser_resize and browser_run_code_unsafe, answered with why Browserdesk does
 * not do them: a client written for playwright-mcp learns it from the call, not from a missing tool.
 */
export function refusedTools(): AgentTool[] {
  return [
    defineTool({
      name: 'browser_resize',
      description:
        "Refused on Browserdesk: the session's window is the screen of its live view, which people watch and take over, so its size is the server's (every session alike), not a tool's. Use browser_emulate_media for media features; a page's own responsive layout shows at the screen's size.",
      input: agentToolInputs.browser_resize,
      run() {
        return Promise.reject(
          new ToolError(
            "browser_resize is refused: the session's window is the screen of its live view (what people watch and take over), sized by the server for every session alike",
          ),
        );
      },
    }),
    defineTool({
      name: 'browser_run_code_unsafe',
      description:
        "Refused on Browserdesk: it would run arbitrary code on the server with a Playwright object, outside the session's CDP policy (which keeps a session's clients inside its own folders and browser). Use browser_evaluate (JavaScript in the page, turned on with /api/mcp?caps=evaluate) or the tools.",
      input: agentToolInputs.browser_run_code_unsafe,
      run() {
        return Promise.reject(
          new ToolError(
            "browser_run_code_unsafe is refused: it would run arbitrary code on the server, outside the session's CDP policy. Use browser_evaluate (in the page, /api/mcp?caps=evaluate) or the other tools",
          ),
        );
      },
    }),
  ];
}
