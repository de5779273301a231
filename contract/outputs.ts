import { z } from 'zod';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage, wellFormed } from './common.ts';
import { checkEnumValues, Description, EnumValues } from './variables.ts';

/**
 * Simplex's structured outputs (its CLI's `set-outputs --field total:number`): the fields a run
 * hands back in `structured_output`, each the extract step of that `as` name, typed.
 */
export const OutputType = z.enum(['string', 'number', 'boolean', 'array', 'object', 'enum']);
export const OUTPUT_FIELDS_MAX = 200;
export const OutputField = z
  .looseObject({
    name: z
      .string({ error: 'name must be a string' })
      .min(1, 'name must not be empty')
      .max(200, 'name must be at most 200 characters')
      .check(wellFormed('name'))
      .describe('The extract step whose value this is (its `as`)'),
    type: OutputType,
    description: Description.optional(),
    enumValues: EnumValues.optional().describe('type enum only, and required for it'),
  })
  .superRefine(checkEnumValues);
export type OutputField = z.infer<typeof OutputField>;
const OutputFields = z
  .array(OutputField)
  .max(OUTPUT_FIELDS_MAX, `structured_output may declare at most ${OUTPUT_FIELDS_MAX} fields`)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `${f.name} is declared twice` });
      seen.add(f.name);
    });
  });

/**
 * Any JSON kept with the workflow for Simplex's clients. A list is Simplex's list of output fields
 * and is checked as such (the runs type their outputs by it); a JSON Schema object's `properties`
 * type them too; anything else is kept as given and not used.
 */
export const StructuredOutput = z
  .unknown()
  .superRefine((value, ctx) => {
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      ctx.addIssue({ code: 'custom', message: tooDeepMessage('structured_output') });
      return;
    }
    if (!Array.isArray(value)) return;
    const r = OutputFields.safeParse(value);
    if (!r.success)
      for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  })
  .describe(
    "A list of output fields [{name, type: string|number|boolean|array|object|enum, description?, enumValues?}] (Simplex's shape), by which a run types its extract values in structured_output; a JSON Schema object, whose properties type them the same way; or any other JSON, kept as given. null means none",
  );
