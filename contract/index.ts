export * from './errors.ts';
export * from './common.ts';
export * from './operation.ts';
export * from './write.ts';
export * from './sessions.ts';
export * from './steps.ts';
export * from './variables.ts';
export * from './placeholders.ts';
export * from './outputs.ts';
export * from './workflows.ts';
export * from './workflowCode.ts';
export * from './runs.ts';
export * from './webhookDeliveries.ts';
export * from './meta.ts';
export * from './events.ts';
export * from './sessionEvents.ts';
export * from './runControl.ts';
export * from './credentials.ts';
export * from './artifacts.ts';
export * from './overview.ts';
export * from './apiKeys.ts';
export * from './cliAuth.ts';
export * from './agent.ts';
export * from './nodes.ts';
export * from './recorder.ts';

import { agentOperations } from './agent.ts';
import { apiKeyOperations } from './apiKeys.ts';
import { cliAuthOperations } from './cliAuth.ts';
import { artifactOperations } from './artifacts.ts';
import { eventOperations } from './events.ts';
import { metaOperations } from './meta.ts';
import { nodeOperations } from './nodes.ts';
import { overviewOperations } from './overview.ts';
import { runOperations } from './runs.ts';
import { webhookDeliveryOperations } from './webhookDeliveries.ts';
import { runControlOperations } from './runControl.ts';
import { credentialOperations } from './credentials.ts';
import { sessionEventOperations } from './sessionEvents.ts';
import { sessionOperations } from './sessions.ts';
import { profileOperations } from './profiles.ts';
import { recorderOperations } from './recorder.ts';
import { workflowOperations } from './workflows.ts';
import { workflowCodeOperations } from './workflowCode.ts';
import { writeOperations } from './write.ts';
import type { Operation } from './operation.ts';

/** Every operation of the API, in the order the OpenAPI document lists them. */
export const operations: Record<string, Operation> = {
  ...writeOperations,
  ...sessionOperations,
  ...profileOperations,
  ...runOperations,
  ...webhookDeliveryOperations,
  ...runControlOperations,
  ...agentOperations,
  ...artifactOperations,
  ...recorderOperations,
  ...sessionEventOperations,
  ...credentialOperations,
  ...workflowOperations,
  ...workflowCodeOperations,
  ...eventOperations,
  ...overviewOperations,
  ...apiKeyOperations,
  ...cliAuthOperations,
  ...nodeOperations,
  ...metaOperations,
};
