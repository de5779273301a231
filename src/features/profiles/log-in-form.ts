import { CreateWorkflowSessionRequest } from '../../../contract/sessions.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';

/** "Log in by hand": only the page to start on is asked; the rest of the session request is fixed. */
export interface LogInValues {
  start_url: string;
}

/**
 * A live session for a person to log in: the whole browser (tabs, address bar) on `start_url`,
 * started from the profile and saving its state back to it when it ends.
 */
export const logInResolver = (profile: string) =>
  contractResolver(CreateWorkflowSessionRequest, (v: LogInValues) => ({
    workflow_name: `Log in to profile ${profile}`,
    start_url: v.start_url.trim(),
    presentation: 'browser' as const,
    profile: { name: profile, persist: true },
  }));
