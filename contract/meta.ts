import { z } from 'zod';
import { Health } from './common.ts';
import { defineOperations } from './operation.ts';

export const metaOperations = defineOperations({
  healthz: {
    operationId: 'healthz',
    method: 'get',
    path: '/healthz',
    summary: 'Liveness check',
    tags: ['meta'],
    auth: false,
    responses: { 200: { description: 'The service is up', schema: Health } },
  },
  openapi: {
    operationId: 'openapi',
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.0.1 document',
    tags: ['meta'],
    auth: false,
    responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  },
});
