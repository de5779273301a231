import { useQuery } from '@tanstack/react-query';
import { CliAuthTicket } from '../../../contract/cliAuth.ts';
import { apiJson } from '../client.ts';
import { cliAuthKeys } from './keys.ts';

export const cliAuthTicketPath = (id: string) => `/cli-auth/tickets/${encodeURIComponent(id)}`;

/** A CLI's login request as its approval page shows it: who asks, from where, when. */
export const getCliAuthTicket = (id: string, signal?: AbortSignal) =>
  apiJson(cliAuthTicketPath(id), CliAuthTicket, { signal });

/** While approved, looked at again every two seconds: the page says when the client has collected its key. */
export const useCliAuthTicket = (id: string) =>
  useQuery({
    queryKey: cliAuthKeys.ticket(id),
    queryFn: ({ signal }) => getCliAuthTicket(id, signal),
    refetchInterval: (query) => (query.state.data?.status === 'approved' ? 2000 : false),
  });
