import {
  CreateWorkflowSessionRequest,
  SESSION_TIMEOUT_DEFAULT,
  type Presentation,
} from '../../../contract/sessions.ts';
import { profileChoiceDefaults, profileUse, type ProfileChoiceValues } from '../../components/profile-choice.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';

/** The launcher's inputs as typed; empty optional fields are left out of the request. */
export interface LauncherValues extends ProfileChoiceValues {
  workflow_name: string;
  proxies: boolean;
  session_data: string;
  timeout: string;
  webhook_url: string;
  metadata: string;
  presentation: Presentation;
  start_url: string;
  user_agent: string;
}

export const launcherDefaults: LauncherValues = {
  workflow_name: '',
  proxies: false,
  session_data: '',
  timeout: String(SESSION_TIMEOUT_DEFAULT),
  webhook_url: '',
  metadata: '',
  // A session launched here is for a person to work in: the whole browser, tabs and address bar.
  // The API's default (kiosk) suits embeds and runs; the launcher offers it too.
  presentation: 'browser',
  start_url: '',
  user_agent: '',
  ...profileChoiceDefaults,
};

const opt = (s: string) => (s.trim() === '' ? undefined : s);

const two = (n: number) => String(n).padStart(2, '0');

/**
 * The name sent when the launcher's is left empty: the API requires workflow_name (the spec's
 * create_workflow_session has no default), so the dashboard names the session by when it started,
 * in local time ("Session 2026-11-25 18:05").
 */
export function defaultSessionName(at: Date): string {
  return `Session ${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}`;
}

export const launcherResolver = contractResolver(CreateWorkflowSessionRequest, (v: LauncherValues) => ({
  workflow_name: v.workflow_name.trim() === '' ? defaultSessionName(new Date()) : v.workflow_name,
  proxies: v.proxies,
  session_data: opt(v.session_data),
  profile: profileUse(v),
  // Number('') is 0, so an emptied box means the default rather than an error.
  timeout: v.timeout.trim() === '' ? undefined : Number(v.timeout),
  webhook_url: opt(v.webhook_url)?.trim(),
  metadata: opt(v.metadata),
  presentation: v.presentation,
  start_url: opt(v.start_url)?.trim(),
  user_agent: opt(v.user_agent)?.trim(),
}));

/**
 * What "Launch browser" starts with the Advanced fields as they are, in a few words ("Full browser,
 * blank page, 20 min, no profile"), so a launch with them folded away holds no surprise.
 */
export function launchSummary(v: Pick<LauncherValues, 'presentation' | 'start_url' | 'timeout' | 'profile'>): string {
  const seconds = v.timeout.trim() === '' ? SESSION_TIMEOUT_DEFAULT : Number(v.timeout);
  const minutes = Number.isFinite(seconds) && seconds > 0 ? Math.max(1, Math.round(seconds / 60)) : undefined;
  return [
    v.presentation === 'kiosk' ? 'Kiosk' : 'Full browser',
    v.start_url.trim() === '' ? 'blank page' : v.start_url.trim(),
    minutes === undefined ? undefined : `${minutes} min`,
    v.profile ? `profile ${v.profile}` : 'no profile',
  ]
    .filter(Boolean)
    .join(', ');
}

export const LAUNCHER_FIELDS = [
  'workflow_name',
  'proxies',
  'session_data',
  'timeout',
  'webhook_url',
  'metadata',
  'presentation',
  'start_url',
  'user_agent',
  'profile',
] as const;
