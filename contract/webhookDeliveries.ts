import { z } from 'zod';
import { page, PageQuery } from './common.ts';
import { defineOperations } from './operation.ts';

/**
 * The webhook outbox as Settings' Deliveries shows it: one delivery per event per destination, its
 * attempts and the last answer. What a delivery may say is bounded: never the signing secret nor a
 * header it was sent with, and a destination's user and password (sent as Authorization) are masked.
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'disabled', 'refused'] as const;
export const WebhookDeliveryStatus = z
  .enum(WEBHOOK_DELIVERY_STATUSES, { message: `status must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` })
  .describe(
    'pending: queued or waiting for its next attempt; delivered: answered 2xx; failed: every attempt failed; disabled: the destination answered 410 Gone; refused: the destination is not allowed (a private address)',
  );
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** The webhook-id header of every attempt of one delivery. */
export const WEBHOOK_DELIVERY_ID = /^msg_[0-9a-f]{32}$/;

export const WebhookDelivery = z.object({
  id: z.string().describe('msg_…, the webhook-id header of every attempt'),
  event: z.string().describe('The event type, such as run.completed'),
  url: z.string().describe('The destination, its user and password (if any) masked as ***'),
  status: WebhookDeliveryStatus,
  response_status: z
    .number()
    .int()
    .nullable()
    .describe("The HTTP status of the last attempt's answer; null when none came (not tried, timed out, refused)"),
  error: z.string().nullable().describe('Why the last attempt failed, in words; null after a success'),
  attempts: z.number().int().describe('Attempts made so far'),
  created_at: z.iso.datetime().describe('When the event was queued'),
  last_attempt_at: z.iso.datetime().nullable(),
  next_attempt_at: z.iso.datetime().nullable().describe('When it is tried next, while pending; else null'),
  delivered_at: z.iso.datetime().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryDetail = WebhookDelivery.extend({
  body: z.string().describe('The exact JSON body that is signed and sent (it may hold data from runs)'),
});
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const WebhookDeliveriesQuery = PageQuery.extend({ status: WebhookDeliveryStatus.optional() });
export const WebhookDeliveriesPage = page(WebhookDelivery);
export type WebhookDeliveriesPage = z.infer<typeof WebhookDeliveriesPage>;

export const WebhookDeliveryParams = z.object({
  id: z.string().regex(WEBHOOK_DELIVERY_ID, 'A delivery id is msg_ and 32 lowercase hexadecimal digits'),
});

export const webhookDeliveryOperations = defineOperations({
  listWebhookDeliveries: {
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/webhooks/deliveries',
    summary: 'Recent webhook deliveries, newest first, optionally of one status (without their bodies)',
    tags: ['webhooks'],
    query: WebhookDeliveriesQuery,
    responses: { 200: { description: 'A page of deliveries', schema: WebhookDeliveriesPage } },
    errors: [401, 422],
  },
  getWebhookDelivery: {
    operationId: 'getWebhookDelivery',
    method: 'get',
    path: '/webhooks/deliveries/{id}',
    summary: 'One webhook delivery with the body it sends',
    tags: ['webhooks'],
    params: WebhookDeliveryParams,
    responses: { 200: { description: 'The delivery and its body', schema: WebhookDeliveryDetail } },
    errors: [401, 404, 422],
  },
  retryWebhookDelivery: {
    operationId: 'retryWebhookDelivery',
    method: 'post',
    path: '/webhooks/deliveries/{id}/retry',
    summary:
      'Send a failed, disabled (410 Gone) or refused delivery once more, now, to the destination it was queued for (checked again as every attempt is), signed with the current secret; answers after that attempt. Its outcome is final (no schedule follows); a disabled destination that takes it gets later events again',
    tags: ['webhooks'],
    params: WebhookDeliveryParams,
    responses: { 200: { description: 'The delivery after the attempt', schema: WebhookDelivery } },
    errors: [401, 404, 409, 422],
  },
});
