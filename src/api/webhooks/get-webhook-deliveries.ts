import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { WebhookDeliveriesPage, WebhookDeliveryDetail } from '../../../contract/webhookDeliveries.ts';
import { apiJson } from '../client.ts';
import { webhookKeys } from './keys.ts';

/** Rows per page of Settings' Deliveries: the recent ones at a glance, older ones on request. */
const PAGE_SIZE = 20;

/**
 * The webhook outbox, newest first, one page after another ("Show older" follows next_cursor).
 * No event reports a delivery's attempts, so it is polled every 3 s while a loaded one is pending.
 */
export const webhookDeliveriesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(),
    queryFn: ({ pageParam, signal }) =>
      apiJson('/webhooks/deliveries', WebhookDeliveriesPage, {
        query: { limit: PAGE_SIZE, cursor: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.items.some((d) => d.status === 'pending')) ? 3000 : false,
  });

export const useWebhookDeliveries = (enabled: boolean) =>
  useInfiniteQuery({ ...webhookDeliveriesQueryOptions(), enabled });

/** One delivery with the body it sends: read when its row is opened. */
export const useWebhookDelivery = (id: string) =>
  useQuery({
    queryKey: webhookKeys.delivery(id),
    queryFn: ({ signal }) =>
      apiJson(`/webhooks/deliveries/${encodeURIComponent(id)}`, WebhookDeliveryDetail, { signal }),
  });
