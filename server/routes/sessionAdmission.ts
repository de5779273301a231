import type { FastifyInstance } from 'fastify';
import type { Issue } from '../../contract/errors.ts';
import { AtCapacity, Invalid } from '../domain/errors.ts';
import { webhookUrlIssue } from '../webhooks/destination.ts';

/** Seconds a client over MAX_SESSIONS is told to wait (what the session manager says too). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Every check of a create_workflow_session request that needs no browser, made before anything is
 * created or started: 422 for proxies without PROXY_URL and for a webhook_url we would refuse to
 * call, then 429 over MAX_SESSIONS. The manager checks the limit again when it creates (another
 * request may take the last slot in between); the route undoes what it created when that happens.
 */
export async function admitCreate(app: FastifyInstance, body: { proxies: boolean; webhook_url?: string }): Promise<void> {
  const issues: Issue[] = [];
  if (body.proxies && !app.config.PROXY_URL) {
    issues.push({ path: 'proxies', message: 'proxies is true but this server has no PROXY_URL configured: set PROXY_URL, or send proxies: false' });
  }
  const webhook = body.webhook_url ? await webhookUrlIssue(body.webhook_url, app.config.WEBHOOK_ALLOW_PRIVATE) : null;
  if (webhook) issues.push(webhook);
  if (issues.length) throw new Invalid(issues);

  if (app.sessions.active >= app.config.MAX_SESSIONS) {
    throw new AtCapacity(`This server runs at most ${app.config.MAX_SESSIONS} sessions at once; end one or retry later`, RETRY_AFTER_SECONDS);
  }
}
