/**
 * Hide credential values in anything a run reports (error messages, extracted text): each value
 * becomes `[credentials.NAME]`. Longest first, so a value that contains another is hidden whole.
 */
export function redactor(credentials: ReadonlyMap<string, string> | undefined): (text: string) => string {
  const pairs = [...(credentials ?? [])]
    .filter(([, value]) => value.length > 0)
    .sort((a, b) => b[1].length - a[1].length);
  if (!pairs.length) return (text) => text;
  return (text) => pairs.reduce((out, [name, value]) => out.split(value).join(`[credentials.${name}]`), text);
}
