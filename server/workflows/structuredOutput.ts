import { MAX_JSON_DEPTH, nestsDeeperThan, parseJson } from '../../contract/common.ts';
import { OutputField } from '../../contract/outputs.ts';

/**
 * A run's `structured_output` for Simplex's clients: its extract values (always text, as
 * `scraper_outputs` keeps them) typed by the workflow's structured_output, so a field declared
 * `number` answers 42.5, not "42.50". The declaration is Simplex's list of output fields
 * (`[{name, type, enumValues?}]`) or a JSON Schema object (`{properties: {name: {type, enum?}}}`).
 *
 * - string: the text as extracted.
 * - number (JSON Schema: also integer, which must be whole): the text, surrounding whitespace
 *   ignored, when it is a decimal number: digits with an optional sign, point and exponent
 *   ("42.50", "-3", "007", "1e3"). A currency sign or thousands separators make it unreadable: null.
 * - boolean: "true" or "false", any case, surrounding whitespace ignored; otherwise null.
 * - enum: the text, surrounding whitespace ignored, when it is one of the values; otherwise null.
 * - array / object: the text parsed as JSON when it is one (a data attribute holding JSON); otherwise null.
 *
 * An extract value with no declared field keeps its text; a declared field no extract step filled
 * is absent. Without a declaration (none, or JSON of another shape) every value keeps its text.
 */
export type StructuredValue = string | number | boolean | null | unknown[] | Record<string, unknown>;

interface FieldType {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'enum';
  enumValues?: readonly string[];
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** What the declaration says of each field, by name; empty when it declares none. */
export function declaredTypes(declaration: unknown): Map<string, FieldType> {
  const types = new Map<string, FieldType>();
  if (Array.isArray(declaration)) {
    for (const item of declaration) {
      const field = OutputField.safeParse(item);
      if (field.success) types.set(field.data.name, { type: field.data.type, enumValues: field.data.enumValues });
    }
    return types;
  }
  const properties = (declaration as { properties?: unknown } | null)?.properties;
  if (
    typeof declaration !== 'object' ||
    properties === null ||
    typeof properties !== 'object' ||
    Array.isArray(properties)
  )
    return types;
  for (const [name, schema] of Object.entries(properties)) {
    const { type, enum: values } = (schema ?? {}) as { type?: unknown; enum?: unknown };
    if (Array.isArray(values) && values.every((v) => typeof v === 'string'))
      types.set(name, { type: 'enum', enumValues: values });
    else if (typeof type === 'string' && ['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(type))
      types.set(name, { type: type as FieldType['type'] });
  }
  return types;
}

/** One extract value as its declared type; null when the text cannot be read as it. */
export function typedValue(text: string, field: FieldType): StructuredValue {
  const trimmed = text.trim();
  switch (field.type) {
    case 'string':
      return text;
    case 'number':
    case 'integer': {
      if (!DECIMAL.test(trimmed)) return null;
      const n = Number(trimmed);
      return Number.isFinite(n) && (field.type === 'number' || Number.isInteger(n)) ? n : null;
    }
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : null;
    }
    case 'enum':
      return field.enumValues?.includes(trimmed) ? trimmed : null;
    case 'array':
    case 'object': {
      const json = parseJson(trimmed);
      if (
        !json.ok ||
        json.value === null ||
        typeof json.value !== 'object' ||
        nestsDeeperThan(json.value, MAX_JSON_DEPTH)
      )
        return null;
      if (Array.isArray(json.value) !== (field.type === 'array')) return null;
      return json.value as unknown[] | Record<string, unknown>;
    }
  }
}

/** Whether a JSON value already is what the field declares. */
function isOfType(value: unknown, field: FieldType): boolean {
  switch (field.type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'enum':
      return typeof value === 'string' && (field.enumValues?.includes(value) ?? false);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

/**
 * The run's extract values, typed by the workflow's structured_output declaration.
 *
 * `json` names the outputs of AI extract steps (contract/steps.ts aiOutputNames): their text is
 * the model's JSON answer, already checked against the step's schema, so it is parsed back and
 * keeps its types with or without a declaration: `{"price":42.5}` under `as: "extract"` is
 * `{extract: {price: 42.5}}`. The value stays under its `as`, like every extract, rather than
 * spread at the top: a declaration names fields by `as`, and two extracts cannot collide. A
 * declared type the answer is not of reads the text as that type, as for any extract.
 */
export function structuredOutputOf(
  outputs: Record<string, string>,
  declaration: unknown,
  json: ReadonlySet<string> = new Set(),
): Record<string, StructuredValue> {
  const types = declaredTypes(declaration);
  return Object.fromEntries(
    Object.entries(outputs).map(([name, text]) => {
      const field = types.get(name);
      if (json.has(name)) {
        const parsed = parseJson(text);
        if (parsed.ok && !nestsDeeperThan(parsed.value, MAX_JSON_DEPTH) && (!field || isOfType(parsed.value, field)))
          return [name, parsed.value as StructuredValue];
      }
      return [name, field ? typedValue(text, field) : text];
    }),
  );
}
