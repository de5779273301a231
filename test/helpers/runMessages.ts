import type { z } from 'zod';
import { expect } from 'vitest';
import { ActiveSession, SessionStatus } from '../../contract/runControl.ts';
import { formWorkflow } from '../fixtures/flows.ts';
import type { TestServer } from './server.ts';
import { waitForAsync } from './wait.ts';

/**
 * A workflow over the form site (fixtures/formSite.ts) whose run waits for a person: the first
 * pause stores the answer in {{who}}, typed as the order's name; the second only waits. `before`
 * steps run ahead of the first pause.
 */
export const askingWorkflow = (name: string, before: unknown[] = []) => ({
  name,
  flow: {
    title: name,
    timeout: 30_000,
    steps: [
      { type: 'navigate', url: '{{site}}/form' },
      ...before,
      { type: 'customStep', name: 'pause', parameters: { message: 'Who is the order for?', variable: 'who' } },
      { type: 'change', selectors: [['#name']], value: '{{who}}' },
      { type: 'customStep', name: 'pause', parameters: { message: 'Check the form, then resume' } },
      // The form site's own ending: send the order, wait for the result page, read its name.
      ...formWorkflow().flow.steps.slice(6, 9),
    ],
  },
  variables: [{ name: 'site', type: 'string', required: true }],
});

/** The session's status once its run is paused with a key other than `notKey` (the pause before). */
export function untilPaused(server: TestServer, sessionId: string, notKey = ''): Promise<SessionStatus> {
  // A browser starting and a page loading on a loaded host: only a hang guard.
  return waitForAsync(
    `the run in ${sessionId} to pause`,
    async () => {
      const status = SessionStatus.parse(await (await server.api(`/api/session/${sessionId}/status`)).json());
      return status.paused && status.paused_key !== notKey ? status : undefined;
    },
    60_000,
  );
}

/** GET /workflow/{id}/active_session, which must answer. */
export async function activeSession(server: TestServer, workflowId: string): Promise<z.infer<typeof ActiveSession>> {
  const res = await server.api(`/api/workflow/${workflowId}/active_session`);
  expect(res.status).toBe(200);
  return ActiveSession.parse(await res.json());
}

/** POST a JSON body to a message_url as Simplex's client does it: the signed URL, no key. */
export function postMessage(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
