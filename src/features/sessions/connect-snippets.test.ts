import ts from 'typescript';
import type { SimplexClientOptions } from 'simplex-ts';
import { describe, expect, it } from 'vitest';
import { API_KEY_ENV, connectSnippets, type SnippetFacts } from './connect-snippets.ts';

const facts: SnippetFacts = {
  apiBase: 'https://desk.example.com/api/',
  connectUrl: 'wss://desk.example.com/s/3f1c9a2e-0000-4000-8000-000000000001/cdp?token=tok_abc',
  sessionId: '3f1c9a2e-0000-4000-8000-000000000001',
};
const byKey = Object.fromEntries(connectSnippets(facts).map((s) => [s.key, s]));
const code = (key: string) => byKey[key]!.code;

/** Syntax errors of a JavaScript or TypeScript module (top-level await allowed). */
function syntaxErrors(source: string): string[] {
  const out = ts.transpileModule(source, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('connect snippets', () => {
  it('offers the six clients, in tab order', () => {
    expect(connectSnippets(facts).map((s) => s.label)).toEqual([
      'Playwright (JS)',
      'Playwright (Python)',
      'Puppeteer',
      'curl',
      'simplex-ts',
      'Python client',
    ]);
  });

  it('hands the connect_url to each browser client the way it takes it', () => {
    const url = JSON.stringify(facts.connectUrl);
    expect(code('playwright-js')).toContain(`chromium.connectOverCDP(${url})`);
    expect(code('playwright-python')).toContain(`p.chromium.connect_over_cdp(${url})`);
    expect(code('puppeteer')).toContain(`browserWSEndpoint: ${url},`);
    expect(code('puppeteer')).toContain('puppeteer.connect({');
  });

  it("points Simplex's clients at this server's API, without a trailing slash", () => {
    expect(code('simplex-ts')).toContain(`baseURL: "https://desk.example.com/api",`);
    expect(code('simplex-ts')).toContain(`client.getSessionStatus("${facts.sessionId}")`);
    expect(code('simplex-python')).toContain(`base_url="https://desk.example.com/api",`);
    expect(code('simplex-python')).toContain(`client.get_session_status("${facts.sessionId}")`);
    // simplex-ts names the option baseURL: this line stops compiling if it ever renames it.
    const options: SimplexClientOptions = { apiKey: 'k', baseURL: 'https://desk.example.com/api' };
    expect(options.baseURL).toBeDefined();
  });

  it('gives curl the session, its Simplex status and its end, quoted for the shell', () => {
    const curl = code('curl');
    expect(curl).toContain(
      `curl -H "X-API-Key: $${API_KEY_ENV}" \\\n  'https://desk.example.com/api/sessions/${facts.sessionId}'\n`,
    );
    expect(curl).toContain(`\\\n  'https://desk.example.com/api/session/${facts.sessionId}/status'\n`);
    expect(curl).toContain(
      `curl -X DELETE -H "X-API-Key: $${API_KEY_ENV}" \\\n  'https://desk.example.com/api/sessions/${facts.sessionId}'\n`,
    );
    const odd = connectSnippets({ ...facts, apiBase: "http://h/it's/api" }).find((s) => s.key === 'curl')!.code;
    expect(odd).toContain(`'http://h/it'\\''s/api/sessions/`);
  });

  it('never holds a key: the API calls read it from the environment', () => {
    for (const key of ['curl', 'simplex-ts', 'simplex-python']) expect(code(key)).toContain(API_KEY_ENV);
    for (const s of connectSnippets(facts)) expect(s.code).not.toMatch(/X-API-Key: (?!\$)/i);
  });

  it('quotes what it fills in, whatever it holds', () => {
    const odd = { ...facts, connectUrl: 'ws://h/s/x/cdp?token=a"b\\c' };
    const js = connectSnippets(odd).find((s) => s.key === 'playwright-js')!.code;
    const literal = /connectOverCDP\((".*")\)/.exec(js)![1]!;
    expect(JSON.parse(literal)).toBe(odd.connectUrl);
  });

  it('writes JavaScript and TypeScript that parses', () => {
    for (const key of ['playwright-js', 'puppeteer', 'simplex-ts']) expect(syntaxErrors(code(key)), key).toEqual([]);
  });

  it('indents the Python blocks with spaces only', () => {
    for (const key of ['playwright-python', 'simplex-python']) expect(code(key)).not.toContain('\t');
    expect(code('playwright-python')).toMatch(/^with sync_playwright\(\) as p:\n {4}browser = /m);
  });
});
