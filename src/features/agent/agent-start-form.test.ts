import { describe, expect, it } from 'vitest';
import { agentStartDefaults, toStartRequest } from './agent-start-form.ts';

describe("the agent's start request", () => {
  it('names the chosen profile and whether to save back to it, and no profile when None is chosen', () => {
    const base = { ...agentStartDefaults, name: 'Checkout', url: ' https://shop.example ' };
    expect(toStartRequest(base)).toEqual({ name: 'Checkout', url: 'https://shop.example' });
    expect(toStartRequest({ ...base, profile: 'shop-login', persist_profile: true })).toEqual({
      name: 'Checkout',
      url: 'https://shop.example',
      profile: { name: 'shop-login', persist: true },
    });
  });
});
