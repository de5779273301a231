import { describe, expect, it } from 'vitest';
import { fieldKindRefusal, sealedSelectors, sealedStepRefusal } from '../server/credentials/sealedPage.ts';

// The input rule and the sealed page rule (issue 44), without a browser.

describe('the input rule', () => {
  it.each(['password', 'text', 'email', 'tel', 'search', 'url'])('types into an <input type=%s>', (type) => {
    expect(fieldKindRefusal(['bank_pw'], `input[type=${type}]`)).toBeUndefined();
  });

  it.each([
    ['div contenteditable', 'not into a <div> that is contenteditable'],
    ['textarea', 'not into a <textarea>'],
    ['input[type=number]', 'not into an input[type=number]'],
    ['input[type=hidden]', 'not into an input[type=hidden]'],
    ['select', 'not into a <select>'],
    ['body contenteditable', 'not into a <body> that is contenteditable'],
  ])('refuses %s, naming the rule', (kind, where) => {
    expect(fieldKindRefusal(['bank_pw'], kind)).toBe(
      `the input rule: the credential "bank_pw" may only be typed into a text-like <input> (password, text, email, tel, search, url), ${where}: text typed there is in the page, where selectors could read it back. Nothing was typed`,
    );
  });
});

describe('the sealed page rule', () => {
  it.each([
    [{ type: 'customStep', name: 'extract' }, 'an extract step'],
    [{ type: 'waitForExpression' }, 'a waitForExpression step'],
    [
      { type: 'waitForElement', properties: { value: 'x' } },
      "a waitForElement step that checks an element's properties or attributes",
    ],
    [
      { type: 'waitForElement', attributes: { id: 'x' } },
      "a waitForElement step that checks an element's properties or attributes",
    ],
  ])('refuses %j', (step, what) => {
    expect(sealedStepRefusal(step, ['a', 'b'])).toBe(
      `the sealed page rule: the credentials "a" and "b" were typed into a page that has not navigated away yet, and until it does the run reads nothing of any page, so ${what} may not run (it could read the secret back from the page)`,
    );
  });

  it.each([
    { type: 'click' },
    { type: 'waitForElement', count: 1, visible: true },
    { type: 'navigate' },
    { type: 'customStep', name: 'pause' },
    { type: 'keyDown' },
  ])('lets %j run', (step) => {
    expect(sealedStepRefusal(step, ['a'])).toBeUndefined();
  });

  it('keeps CSS and pierce/ selectors, leaves out aria/, text/ and xpath/ ones, chains included', () => {
    expect(
      sealedSelectors(
        [
          ['aria/Sign in'],
          ['#go'],
          ['xpath///button'],
          ['text/Go'],
          ['pierce/#go'],
          ['#frame', 'xpath///b'],
          ['#a', 'b'],
        ],
        ['a'],
      ),
    ).toEqual([['#go'], ['pierce/#go'], ['#a', 'b']]);
    expect(sealedSelectors(['#go', 'aria/Go'], ['a'])).toEqual(['#go']);
  });

  it('refuses a step left with no selector, naming the rule', () => {
    expect(() => sealedSelectors([['xpath///h1'], ['text/x']], ['a'])).toThrow(
      `the sealed page rule: the credential "a" was typed into a page that has not navigated away yet, and until it does a step finds its element by CSS selectors only (aria/, text/ and xpath/ selectors read the page's text); this step has none`,
    );
  });
});
