import { describe, expect, it } from 'vitest';
import { failedDelivery } from './delivery-fixture.ts';
import { canRetry, deliveryStatusWords, retryOutcomeWords } from './delivery-words.ts';

const base = failedDelivery;

describe('delivery words', () => {
  it('says the status with the last answer', () => {
    expect(deliveryStatusWords(base)).toBe('Failed (500)');
    expect(deliveryStatusWords({ ...base, status: 'pending', attempts: 0, response_status: null })).toBe('Queued');
    expect(deliveryStatusWords({ ...base, status: 'pending', attempts: 2, response_status: 503 })).toBe(
      'Retrying (503)',
    );
    expect(deliveryStatusWords({ ...base, status: 'refused', response_status: null })).toBe('Refused');
  });

  it('offers Retry only for failed, disabled and refused deliveries', () => {
    for (const status of ['failed', 'disabled', 'refused'] as const) expect(canRetry({ ...base, status })).toBe(true);
    for (const status of ['pending', 'delivered'] as const) expect(canRetry({ ...base, status })).toBe(false);
  });

  it('says what a retry came to', () => {
    expect(retryOutcomeWords({ ...base, status: 'delivered', response_status: 200, error: null })).toBe(
      'Delivered: run.completed reached https://hooks.example.com/in, which answered 200.',
    );
    expect(retryOutcomeWords(base)).toMatch(/^Not delivered: .* failed again \(destination answered 500\)\./);
  });
});
