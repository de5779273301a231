import { describe, expect, it } from 'vitest';
import type { Variable } from '../../../contract/variables.ts';
import { profileChoiceDefaults } from '../profile-choice.ts';
import { isSecretVariable, issueField, runResolver, type RunFormValues } from './run-form.ts';

const ID = '3da01067-def5-4369-9fcc-3a0ccecdf3b0';
const schema: Variable[] = [
  { name: 'email', type: 'string', required: true },
  { name: 'count', type: 'number', required: false, default: 2 },
  { name: 'agree', type: 'boolean', required: false },
];
const base: RunFormValues = {
  workflow_id: ID,
  vars: {},
  variablesJson: '',
  metadata: '',
  webhook_url: '',
  ...profileChoiceDefaults,
};
const resolve = (v: RunFormValues, s: Variable[] | null) =>
  runResolver(v, { schema: s }, { fields: {}, shouldUseNativeValidation: false }) as Awaited<
    ReturnType<typeof runResolver>
  >;

describe('run form validation', () => {
  it('builds variables from the schema-generated inputs, typed', async () => {
    const r = await resolve(
      { ...base, vars: { email: 'a@b.c', count: '5', agree: true }, metadata: '{"t":1}' },
      schema,
    );
    expect(r.errors).toEqual({});
    expect(r.values).toEqual({
      workflow_id: ID,
      metadata: '{"t":1}',
      webhook_url: undefined,
      variables: '{"email":"a@b.c","count":5,"agree":true}',
    });
  });

  it('names a missing required variable and a non-number', async () => {
    const r = await resolve({ ...base, vars: { email: '', count: 'x', agree: false } }, schema);
    expect(r.errors.vars?.email?.message).toBe('Email is required.');
    expect(r.errors.vars?.count?.message).toBe('Count must be a number.');
  });

  it('takes any metadata text as typed, up to its limit', async () => {
    const r = await resolve({ ...base, metadata: 'order 7 {' }, null);
    expect(r.errors).toEqual({});
    expect(r.values).toMatchObject({ metadata: 'order 7 {' });
    const long = await resolve({ ...base, metadata: 'x'.repeat(50_001) }, null);
    expect(long.errors.metadata?.message).toBe('Metadata must be at most 50000 characters.');
  });

  it('says in sentences what is wrong with the id, the webhook URL and, without a schema, the variables JSON', async () => {
    const r = await resolve({ ...base, workflow_id: 'abc', variablesJson: '[1]', webhook_url: 'nope' }, null);
    expect(r.errors.workflow_id?.message).toBe(
      'Workflow ID must be the id of a saved workflow, a UUID such as 0f8e6a4c-3b1d-4c52-9e7a-2d5b8c1f4a90.',
    );
    const none = await resolve({ ...base, workflow_id: ' ' }, null);
    expect(none.errors.workflow_id?.message).toBe('Choose a workflow to run.');
    expect(r.errors.webhook_url?.message).toBe('Webhook URL must be an http(s) URL.');
    expect(r.errors.variablesJson?.message).toBe('Variables must be a JSON object.');
  });

  it('sends a chosen profile by name with persist_profile as text, and no profile fields without one', async () => {
    const none = await resolve({ ...base, persist_profile: true }, null);
    expect(none.values).toMatchObject({ profile: undefined, persist_profile: undefined });
    const saving = await resolve({ ...base, profile: 'shop-login', persist_profile: true }, null);
    expect(saving.values).toMatchObject({ profile: 'shop-login', persist_profile: 'true' });
    const reading = await resolve({ ...base, profile: 'shop-login' }, null);
    expect(reading.values).toMatchObject({ profile: 'shop-login', persist_profile: 'false' });
  });
});

describe("where a run's 422 issue goes", () => {
  it("beside the variable's own input, the JSON field without a schema, a named field, or the form", () => {
    expect(issueField({ path: 'variables.email', message: 'm' }, true)).toEqual({ field: 'vars.email', message: 'm' });
    expect(issueField({ path: 'variables.email', message: 'm' }, false)).toEqual({
      field: 'variablesJson',
      message: 'm',
    });
    expect(issueField({ path: 'webhook_url', message: 'm' }, true)).toEqual({ field: 'webhook_url', message: 'm' });
    expect(issueField({ path: 'files.0', message: 'm' }, true)).toEqual({
      field: 'root.server',
      message: 'files.0: m',
    });
  });
});

describe('isSecretVariable', () => {
  it("is a recorded password's placeholder, or a variable named like a secret, and not any other", () => {
    const v = (name: string, description?: string): Variable => ({ name, type: 'string', required: true, description });
    for (const secret of [
      v('password'),
      v('shop_pw', 'Typed into a password field'),
      v('api_key'),
      v('pin'),
      v('card_pin'),
    ])
      expect(isSecretVariable(secret)).toBe(true);
    for (const plain of [v('email'), v('pinned_note'), v('spinner'), v('first')])
      expect(isSecretVariable(plain)).toBe(false);
  });
});
