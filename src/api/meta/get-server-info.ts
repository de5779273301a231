import { queryOptions, useQuery } from '@tanstack/react-query';
import { ServerInfo } from '../../../contract/meta.ts';
import { apiJson } from '../client.ts';
import { metaKeys } from './keys.ts';

/** Facts about the server (version, what is configured); never a secret. */
export const getServerInfo = (signal?: AbortSignal) => apiJson('/server_info', ServerInfo, { signal });

export const serverInfoQueryOptions = () =>
  // Configuration changes only with a restart: once a minute is plenty.
  queryOptions({ queryKey: metaKeys.serverInfo(), queryFn: ({ signal }) => getServerInfo(signal), staleTime: 60_000 });

export const useServerInfo = (enabled = true) => useQuery({ ...serverInfoQueryOptions(), enabled });
