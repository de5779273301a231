import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from '../client.ts';
import { loadSettings } from '../settings.ts';
import { metaKeys } from './keys.ts';

/** Enough of an OpenAPI document to know it is one; the renderer reads the rest. */
const OpenApiDocument = z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) });
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;

/** GET /openapi.json: public, so it is asked for without the saved key. */
export const getOpenApi = (signal?: AbortSignal) =>
  apiJson('/openapi.json', OpenApiDocument, { signal, settings: { ...loadSettings(), apiKey: '' } });

// The document changes only with a new version of the server.
export const openApiQueryOptions = () =>
  queryOptions({ queryKey: metaKeys.openapi(), queryFn: ({ signal }) => getOpenApi(signal), staleTime: Infinity });

export const useOpenApi = () => useQuery(openApiQueryOptions());
