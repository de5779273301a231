import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CliAuthTicket } from '../../../contract/cliAuth.ts';
import { apiJson } from '../client.ts';
import { apiKeyKeys } from '../apiKeys/keys.ts';
import { cliAuthTicketPath } from './get-ticket.ts';
import { cliAuthKeys } from './keys.ts';

export type CliAuthDecision = 'approve' | 'deny';

/** Approve (a new API key for the client) or deny a CLI's login request. */
export const decideCliAuthTicket = (id: string, decision: CliAuthDecision) =>
  apiJson(`${cliAuthTicketPath(id)}/${decision}`, CliAuthTicket, { method: 'POST' });

export function useDecideCliAuthTicket(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: CliAuthDecision) => decideCliAuthTicket(id, decision),
    onSuccess: (ticket) => {
      queryClient.setQueryData(cliAuthKeys.ticket(id), ticket);
      // An approval made a key: Settings lists it.
      return queryClient.invalidateQueries({ queryKey: apiKeyKeys.all });
    },
  });
}
