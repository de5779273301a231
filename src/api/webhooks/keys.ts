/** Every react-query key for webhooks (TanStack's key-factory pattern). */
export const webhookKeys = {
  all: ['webhooks'] as const,
  secret: () => [...webhookKeys.all, 'secret'] as const,
  deliveries: () => [...webhookKeys.all, 'deliveries'] as const,
  delivery: (id: string) => [...webhookKeys.deliveries(), 'one', id] as const,
};
