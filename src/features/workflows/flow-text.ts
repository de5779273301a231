import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

export interface LineIssue {
  line: number;
  message: string;
}

const SYNTAX: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing } is expected',
  CloseBracketExpected: 'a closing ] is expected',
  EndOfFileExpected: 'nothing may follow the closing }',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut off',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Parse strict JSON, keeping the tree so later problems can be placed on their line. */
export function parseFlowText(text: string): { value?: unknown; tree?: Node; syntax: LineIssue[] } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (!text.trim())
    return { syntax: [{ line: 1, message: 'the flow is empty: paste or import a Chrome Recorder JSON' }] };
  if (errors.length || !tree) {
    return {
      syntax: errors.map((e) => {
        const code = printParseErrorCode(e.error);
        return { line: lineAt(text, e.offset), message: `JSON syntax: ${SYNTAX[code] ?? code}` };
      }),
    };
  }
  return { value: JSON.parse(text) as unknown, tree, syntax: [] };
}

/** The line of the deepest node of `path` that exists (a missing field points at its parent). */
export function lineOfPath(text: string, tree: Node | undefined, path: (string | number)[]): number {
  if (!tree) return 1;
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(tree, path.slice(0, n));
    if (node) {
      // A property's value node: point at its key (the parent property) when there is one.
      const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
      return lineAt(text, at);
    }
  }
  return 1;
}

export function formatLineIssues(issues: LineIssue[]): string {
  return [...issues]
    .sort((a, b) => a.line - b.line)
    .map((i) => `Line ${i.line}: ${i.message}`)
    .join('\n');
}

/** The inverse of formatLineIssues: the editor marks each listed problem at its line. */
export function parseLineIssues(message: string | undefined): LineIssue[] {
  const issues: LineIssue[] = [];
  for (const row of (message ?? '').split('\n')) {
    const m = /^Line (\d+): (.*)$/.exec(row);
    if (m) issues.push({ line: Number(m[1]), message: m[2]! });
    else if (issues.length) issues[issues.length - 1]!.message += `\n${row}`;
  }
  return issues;
}
