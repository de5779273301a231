import { z } from 'zod';
import { codePointLength, wellFormed } from './common.ts';

/** The name rule of a variable, and of an output (an extract step's `as`): letters, digits and _, not starting with a digit. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A variable's type. `enum` is a string limited to its `enumValues` (Simplex's CLI:
 * `--field status:enum:pending,active`). Simplex's CLI also offers array and object; they are not
 * taken, since a placeholder fills text.
 */
export const VariableType = z.enum(['string', 'number', 'boolean', 'enum']);
export type VariableType = z.infer<typeof VariableType>;

export const DESCRIPTION_MAX_CHARS = 1000;
export const ENUM_VALUES_MAX = 100;
export const ENUM_VALUE_MAX_CHARS = 200;

const DefaultValue = z.union([z.string(), z.number(), z.boolean()]);
/** A variable's description and enum values; an output field (outputs.ts) takes the same two. */
export const Description = z
  .string({ error: 'description must be a string' })
  .refine((s) => codePointLength(s) <= DESCRIPTION_MAX_CHARS, {
    message: `description must be at most ${DESCRIPTION_MAX_CHARS} characters`,
  })
  .check(wellFormed('description'));
export const EnumValues = z
  .array(
    z
      .string({ error: 'each of enumValues must be a string' })
      .min(1, 'each of enumValues must be a non-empty string')
      .refine((s) => codePointLength(s) <= ENUM_VALUE_MAX_CHARS, {
        message: `each of enumValues must be at most ${ENUM_VALUE_MAX_CHARS} characters`,
      })
      .check(wellFormed('enumValues')),
    { error: 'enumValues must be a list of strings' },
  )
  .max(ENUM_VALUES_MAX, `enumValues may list at most ${ENUM_VALUES_MAX} values`);

/** The checks `type: enum` brings, shared by variables and structured outputs; issues go on `enumValues`. */
export function checkEnumValues(v: { type: string; enumValues?: string[] }, ctx: z.RefinementCtx): void {
  if (v.type !== 'enum') {
    if (v.enumValues !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['enumValues'],
        message: `enumValues is only for type enum (this one is ${v.type})`,
      });
    return;
  }
  if (!v.enumValues?.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['enumValues'],
      message: 'type enum needs enumValues: the values it may take, at least one',
    });
    return;
  }
  const twice = v.enumValues.find((value, i) => v.enumValues!.indexOf(value) !== i);
  if (twice !== undefined)
    ctx.addIssue({ code: 'custom', path: ['enumValues'], message: `enumValues lists "${twice}" more than once` });
}

/** A variable as stored, and as the run form and the runner read it. */
export const StoredVariable = z.object({
  name: z.string(),
  type: VariableType,
  required: z.boolean(),
  default: DefaultValue.optional(),
  description: z.string().optional().describe('What to give, shown beside the input'),
  enumValues: z.array(z.string()).optional().describe('type enum: the values it may take'),
});
export type Variable = z.infer<typeof StoredVariable>;

/**
 * A variable as sent: ours (`default`) or Simplex's CLI's shape (`defaultValue`, `description`,
 * `enumValues`). Stored with `default` only; answered with both (VariableAsSent).
 */
export const Variable = z
  .object({
    name: z.string().regex(VARIABLE_NAME, 'name must be letters, digits and _, not starting with a digit'),
    type: VariableType,
    required: z.boolean().default(false),
    default: DefaultValue.optional(),
    defaultValue: DefaultValue.optional().describe(
      "Simplex's name for default; when both are given they must be equal",
    ),
    description: Description.optional().describe(`Up to ${DESCRIPTION_MAX_CHARS} characters; "" is none`),
    enumValues: EnumValues.optional().describe('type enum only, and required for it: the values allowed, each once'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.default !== undefined && v.defaultValue !== undefined && v.default !== v.defaultValue) {
      ctx.addIssue({
        code: 'custom',
        path: ['defaultValue'],
        message: 'defaultValue and default differ: give one of them, or the same value in both',
      });
      return;
    }
    checkEnumValues(v, ctx);
    const given = v.default !== undefined ? 'default' : 'defaultValue';
    const value = v.default ?? v.defaultValue;
    if (value === undefined) return;
    if (v.type === 'enum') {
      if (v.enumValues?.length && !(typeof value === 'string' && v.enumValues.includes(value))) {
        ctx.addIssue({ code: 'custom', path: [given], message: `${given} must be one of the enumValues` });
      }
    } else if (typeof value !== v.type)
      ctx.addIssue({ code: 'custom', path: [given], message: `${given} must have the variable's type` });
  })
  .transform(({ name, type, required, default: byOurName, defaultValue, description, enumValues }): Variable => {
    const value = byOurName ?? defaultValue;
    return {
      name,
      type,
      required,
      ...(value !== undefined ? { default: value } : {}),
      ...(description ? { description } : {}),
      ...(enumValues !== undefined ? { enumValues } : {}),
    };
  });

/** A variable as answered: `defaultValue` beside `default` (the same value), which Simplex's CLI reads. */
export const VariableAsSent = StoredVariable.extend({
  defaultValue: DefaultValue.optional().describe("The same as default, under the name Simplex's clients read"),
});
export type VariableAsSent = z.infer<typeof VariableAsSent>;
export const variableAsSent = (v: Variable): VariableAsSent =>
  v.default === undefined ? v : { ...v, defaultValue: v.default };
