import type { QueryKey } from '@tanstack/react-query';
import type { ServerEvent } from '../../../contract/events.ts';
import { overviewKeys } from '../overview/keys.ts';
import { profileKeys } from '../profiles/keys.ts';
import { runKeys } from '../runs/keys.ts';
import { sessionKeys } from '../sessions/keys.ts';

/** The queries one event makes stale. A session's views and storage state are left alone: views mint tokens, and neither changes with an event. */
export function keysFor(event: ServerEvent): QueryKey[] {
  const id = event.session_id;
  switch (event.type) {
    case 'session.changed':
      // Its state may move it between the lists' filters; a pause or an end changes its run, and the runs list shows that run.
      // A start or an end also changes the profiles it uses (in use by, last used, a version saved back).
      return [
        sessionKeys.one(id),
        sessionKeys.status(id),
        sessionKeys.events(id),
        runKeys.status(id),
        sessionKeys.lists(),
        runKeys.lists(),
        overviewKeys.all,
        profileKeys.all,
      ];
    case 'run.step':
      return [runKeys.status(id), sessionKeys.status(id), sessionKeys.events(id), runKeys.lists()];
    case 'run.completed':
      // The home's run counts and chart move with each outcome.
      return [runKeys.status(id), sessionKeys.status(id), sessionKeys.events(id), runKeys.lists(), overviewKeys.all];
  }
}

/** Everything an event can make stale: refetched on each (re)connect, as events sent while the stream was down are lost. */
export const liveKeys = (): QueryKey[] => [
  sessionKeys.lists(),
  sessionKeys.details(),
  sessionKeys.statuses(),
  sessionKeys.eventLogs(),
  runKeys.all,
  overviewKeys.all,
  profileKeys.all,
];
