import { agentToolInputs } from '../../contract/agentTools.ts';
import { PRESENTATION_DEFAULT, SESSION_TIMEOUT_DEFAULT } from '../../contract/sessions.ts';
import type { ToolKit } from './kit.ts';
import { goTo } from './navigation.ts';
import { defineTool, type AgentTool } from './registry.ts';

const json = (value: unknown) => ({ type: 'text' as const, text: JSON.stringify(value, null, 2) });

/** session_create, session_close, session_list, session_status: sessions an agent makes are ordinary sessions (dashboard, logs, recordings). */
export function sessionTools(kit: ToolKit): AgentTool[] {
  const { records, urls } = kit.deps;
  return [
    defineTool({
      name: 'session_create',
      description:
        'Start a new browser session (a real Chromium a person can watch live at vnc_url). Answers session_id, which every browser_* tool takes, vnc_url (interactive, for a person) and livestream_url (view only). With start_url, the session opens that page first.',
      input: agentToolInputs.session_create,
      async run(input, _signal, caller) {
        const name = input.workflow_name ?? 'Agent session';
        const { sessionId, workflowId, isolation, tokens } = await records.create(
          {
            workflow_name: name,
            timeout: input.timeout ?? SESSION_TIMEOUT_DEFAULT,
            proxies: input.proxies ?? false,
            presentation: PRESENTATION_DEFAULT,
            ...(input.profile ? { profile: input.profile } : {}),
            ...(input.isolation ? { isolation: input.isolation } : {}),
          },
          caller?.apiKeyId ?? null,
        );
        const { vnc_url, livestream_url } = urls.session(sessionId, tokens);
        let opened: string | undefined;
        if (input.start_url) {
          opened = await goTo(kit, sessionId, input.start_url).then(
            (loaded) => `Opened ${loaded.url}`,
            (err: unknown) => `start_url did not load: ${(err as Error).message}`,
          );
        }
        return {
          sessionId,
          content: [
            json({ session_id: sessionId, workflow_id: workflowId, isolation, vnc_url, livestream_url }),
            ...(opened ? [{ type: 'text' as const, text: opened }] : []),
          ],
          summary: `Session created for workflow "${name}"${opened ? `; ${opened}` : ''}`,
        };
      },
    }),
    defineTool({
      name: 'session_close',
      description: 'End a session: its browser closes; its log, recording and downloads stay.',
      input: agentToolInputs.session_close,
      async run({ session_id }) {
        // Logged before the end, while the session still takes events (after it, the registry logs nothing);
        // only for a session this node holds, so an unknown id leaves no event behind.
        if (kit.deps.sessions.get(session_id)?.state === 'live') {
          kit.deps.events.append(session_id, {
            event: 'AgentToolCall',
            tool: 'session_close',
            ok: true,
            message: 'Closing the session',
            duration: 0,
          });
        }
        const session = await records.end(session_id);
        kit.snapshots.forget(session_id);
        return {
          content: [json({ session_id, state: session.state, end_reason: session.end_reason })],
          summary: 'Session closed',
        };
      },
    }),
    defineTool({
      name: 'session_list',
      description: 'The newest sessions, live and ended: id, workflow, state, when it started and when it expires.',
      input: agentToolInputs.session_list,
      async run({ limit }) {
        const page = await records.list({ limit: limit ?? 20, sort: 'created_at', order: 'desc' });
        const items = page.items.map((s) => ({
          session_id: s.id,
          workflow_name: s.workflow_name,
          state: s.state,
          end_reason: s.end_reason,
          created_at: s.created_at,
          expires_at: s.expires_at,
        }));
        return { content: [json(items)], summary: `Listed ${items.length} sessions` };
      },
    }),
    defineTool({
      name: 'session_status',
      description:
        'One session: its state (starting, live, ended), why it ended, when it expires, and the page it shows when live.',
      input: agentToolInputs.session_status,
      async run({ session_id }) {
        const s = await records.get(session_id);
        let page: { url: string; title: string } | undefined;
        if (s.state === 'live' && kit.deps.sessions.get(session_id)) {
          const p = await kit.browsers.page(session_id);
          page = { url: p.url(), title: await p.title().catch(() => '') };
        }
        return {
          content: [
            json({
              session_id,
              workflow_name: s.workflow_name,
              state: s.state,
              end_reason: s.end_reason,
              created_at: s.created_at,
              expires_at: s.expires_at,
              ended_at: s.ended_at,
              page,
            }),
          ],
          summary: `Status: ${s.state}`,
        };
      },
    }),
  ];
}
