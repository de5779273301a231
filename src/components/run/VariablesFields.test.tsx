// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunWorkflowFields } from '../../../contract/runs.ts';
import type { Variable } from '../../../contract/variables.ts';
import { initialVars, isSecretVariable, runResolver, type RunFormContext, type RunFormValues } from './run-form.ts';
import { VariablesFields } from './VariablesFields.tsx';

const ID = '3da01067-def5-4369-9fcc-3a0ccecdf3b0';

/** The run form's variables as RunPage wires them: the schema's inputs, the contract's resolver, a submit. */
function Harness({
  schema,
  onSubmit,
  secret,
}: {
  schema: Variable[];
  onSubmit: (fields: RunWorkflowFields) => void;
  secret?: (v: Variable) => boolean;
}) {
  const { register, handleSubmit, formState } = useForm<RunFormValues, RunFormContext, RunWorkflowFields>({
    resolver: runResolver,
    context: { schema },
    defaultValues: { workflow_id: ID, vars: initialVars(schema), variablesJson: '', metadata: '', webhook_url: '' },
  });
  return (
    <form onSubmit={(e) => void handleSubmit(onSubmit)(e)} noValidate>
      <VariablesFields schema={schema} register={register} errors={formState.errors.vars} secret={secret} />
      <button type="submit">Run workflow</button>
    </form>
  );
}

/** As Simplex's CLI writes them: `name!:string:Customer name`, `status:enum:pending,active`, and a required enum. */
const schema: Variable[] = [
  { name: 'name', type: 'string', required: true, description: 'Customer name' },
  { name: 'status', type: 'enum', required: false, enumValues: ['pending', 'active'] },
  { name: 'plan', type: 'enum', required: true, enumValues: ['free', 'pro'], description: 'Which plan to sign up for' },
  { name: 'size', type: 'enum', required: false, enumValues: ['s', 'm', 'l'], default: 'm' },
  { name: 'express', type: 'boolean', required: false, description: 'Ship the next day' },
];

const descriptionOf = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

afterEach(cleanup);

describe("the run form's variables", () => {
  it("shows each description as its input's accessible description", () => {
    render(<Harness schema={schema} onSubmit={vi.fn()} />);
    expect(descriptionOf(screen.getByLabelText(/^name/))).toBe('Customer name');
    expect(descriptionOf(screen.getByLabelText(/^plan/))).toBe('Which plan to sign up for');
    expect(descriptionOf(screen.getByLabelText('express'))).toBe('Ship the next day');
    expect(screen.getByLabelText(/^status/).getAttribute('aria-describedby')).toBeNull();
  });

  it("offers an enum's values in a labelled select: none yet when it has no default, its default otherwise", () => {
    render(<Harness schema={schema} onSubmit={vi.fn()} />);
    const options = (label: RegExp) =>
      [...(screen.getByLabelText(label) as HTMLSelectElement).options].map((o) => o.textContent);
    expect(screen.getByLabelText(/^status/).tagName).toBe('SELECT');
    expect(options(/^status/)).toEqual(['(none)', 'pending', 'active']);
    expect(options(/^plan/)).toEqual(['Choose…', 'free', 'pro']);
    expect(options(/^size/)).toEqual(['s', 'm', 'l']);
    expect((screen.getByLabelText(/^size/) as HTMLSelectElement).value).toBe('m');
    expect(screen.getByLabelText(/^plan/).getAttribute('aria-required')).toBe('true');
    expect(screen.getByText('(one of 2, required)')).toBeTruthy();
  });

  it('is filled from the keyboard alone, and sends the chosen values typed', async () => {
    const onSubmit = vi.fn();
    render(<Harness schema={schema} onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText(/^name/));
    await user.keyboard('Ada');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText(/^status/));
    await user.selectOptions(document.activeElement as HTMLSelectElement, 'active');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText(/^plan/));
    await user.selectOptions(document.activeElement as HTMLSelectElement, 'pro');
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('express'));
    await user.keyboard(' ');
    await user.tab();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(JSON.parse(onSubmit.mock.calls[0]![0].variables)).toEqual({
      name: 'Ada',
      status: 'active',
      plan: 'pro',
      size: 'm',
      express: true,
    });
  });

  it('names a required enum left unchosen, on its select', async () => {
    const onSubmit = vi.fn();
    render(<Harness schema={schema} onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText(/^name/), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Run workflow' }));
    expect(await screen.findByText('Plan is required.')).toBeTruthy();
    const plan = screen.getByLabelText(/^plan/);
    expect(plan.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(plan)).toBe('Which plan to sign up for Plan is required.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('types a secret hidden, as a password, and sends it like any value', async () => {
    const onSubmit = vi.fn();
    const secrets: Variable[] = [
      {
        name: 'shop_pw',
        type: 'string',
        required: true,
        description: 'Typed into a password field while recording: its value was not recorded',
      },
      { name: 'email', type: 'string', required: true },
    ];
    render(<Harness schema={secrets} onSubmit={onSubmit} secret={isSecretVariable} />);
    const pw = screen.getByLabelText(/^shop_pw/);
    expect(pw.getAttribute('type')).toBe('password');
    expect(screen.getByLabelText(/^email/).getAttribute('type')).toBeNull();
    await userEvent.type(pw, 's3cret');
    await userEvent.type(screen.getByLabelText(/^email/), 'a@b.c');
    await userEvent.click(screen.getByRole('button', { name: 'Run workflow' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(JSON.parse((onSubmit.mock.calls[0]![0] as RunWorkflowFields).variables!)).toEqual({
      shop_pw: 's3cret',
      email: 'a@b.c',
    });
  });
});
