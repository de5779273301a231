import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { StartEditorSessionResponse, type StartEditorSessionRequest } from '../../../contract/agent.ts';
import { apiJson } from '../client.ts';
import { sessionKeys } from '../sessions/keys.ts';

/** The request as sent (the schema's input: the server parses test_data and trims the name). */
export type StartEditorSessionBody = z.input<typeof StartEditorSessionRequest>;

/** POST /start_editor_session: a workflow, a live session on `url`, and an agent in it. */
export const startEditorSession = (body: StartEditorSessionBody) =>
  apiJson('/start_editor_session', StartEditorSessionResponse, { body });

export function useStartEditorSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startEditorSession,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.lists() }),
  });
}
