import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, type AgentTool } from './registry.ts';

const json = (value: unknown) => ({ type: 'text' as const, text: JSON.stringify(value, null, 2) });

/** search_workflows, run_workflow, downloads_list: the saved workflows and what sessions leave. */
export function workflowTools(kit: ToolKit): AgentTool[] {
  const { runs, workflows } = kit.deps;
  return [
    defineTool({
      name: 'search_workflows',
      description:
        'Saved workflows by part of their name (any case), newest first, with their variables: what run_workflow can run.',
      input: agentToolInputs.search_workflows,
      async run({ name }) {
        const hits = name
          ? await workflows.search({ name })
          : (await workflows.list({ limit: 20 })).items.map((w) => ({
              workflow_id: w.id,
              workflow_name: w.name,
              variables: w.variables,
              metadata: w.metadata,
            }));
        return {
          content: [json(hits)],
          summary: `Found ${hits.length} workflows${name ? ` named like "${name.slice(0, 100)}"` : ''}`,
        };
      },
    }),
    defineTool({
      name: 'run_workflow',
      description:
        'Run a saved workflow with values for its variables, in a new session, as POST /api/run_workflow does. Answers the session_id (session_status follows it; session_handoff pauses it) and vnc_url to watch it. Workflows that upload files cannot run from here.',
      input: agentToolInputs.run_workflow,
      async run({ workflow_id, variables }) {
        // The form run_workflow's route builds, so the checks are the runs' own (variables, credentials).
        const fields: Record<string, string> = {
          workflow_id,
          ...(variables ? { variables: JSON.stringify(variables) } : {}),
        };
        const { outcome, response } = await runs.submit(() => Promise.resolve({ fields, files: [] }));
        const { succeeded, message, session_id, vnc_url } = response;
        return {
          sessionId: outcome === 'not_started' ? undefined : session_id,
          content: [json({ succeeded, message, session_id, vnc_url, queued: outcome === 'queued' })],
          summary: `Ran workflow ${workflow_id}: ${message}`,
        };
      },
    }),
    defineTool({
      name: 'downloads_list',
      description:
        "The files the session's browser downloaded, each with a download_url that works for a day without the API key.",
      input: agentToolInputs.downloads_list,
      async run({ session_id }) {
        await kit.deps.records.get(session_id);
        const files = kit.deps.downloads(session_id);
        return { content: [json(files)], summary: `Listed ${files.length} downloads` };
      },
    }),
  ];
}
