import { describe, expect, it } from 'vitest';
import {
  typedFieldActRefusal,
  typedFieldChangeRefusal,
  typedFieldKeyRefusal,
  typedFieldLostRefusal,
  unfocusedFieldRefusal,
} from '../server/credentials/typedFieldEdits.ts';

// What a run may do to a field it typed a kept credential into, without a browser.

const onField = { editing: true, oneLine: false };
const onInput = { editing: true, oneLine: true };
const elsewhere = { editing: false, oneLine: false };

describe('keys pressed in a field a kept credential was typed into', () => {
  it.each(['Backspace', 'Delete', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'a', ' ', 'Enter'])(
    '%j is refused in a contenteditable or textarea',
    (key) => {
      expect(typedFieldKeyRefusal(key, ['bank_pw'], onField)).toBe(
        `the credential "bank_pw" was typed into the field that has the focus, so until the page navigates a key step there may only leave it (Tab, Escape) or submit a one-line field (Enter), not press ${JSON.stringify(key)}: editing its text would let the flow read back part of the secret`,
      );
    },
  );

  it.each(['Tab', 'Escape', 'Shift'])('%j leaves the field, and is pressed', (key) => {
    expect(typedFieldKeyRefusal(key, ['bank_pw'], onField)).toBeUndefined();
  });

  it('Enter submits a one-line input and is pressed; Backspace there is refused', () => {
    expect(typedFieldKeyRefusal('Enter', ['bank_pw'], onInput)).toBeUndefined();
    expect(typedFieldKeyRefusal('Backspace', ['bank_pw'], onInput)).toMatch(/not press "Backspace"/);
  });

  it('any key is pressed once the focus is elsewhere', () => {
    expect(typedFieldKeyRefusal('Backspace', ['bank_pw'], elsewhere)).toBeUndefined();
  });

  it('names every credential typed into the field, never a value', () => {
    expect(typedFieldKeyRefusal('Delete', ['user', 'pw'], onField)).toMatch(
      /^the credentials "user" and "pw" were typed into the field/,
    );
  });
});

describe('a change step into such a field', () => {
  it('replacing its text whole, or typing the same, is taken', () => {
    expect(typedFieldChangeRefusal(['bank_pw'], 'secret', 'other')).toBeUndefined();
    expect(typedFieldChangeRefusal(['bank_pw'], 'secret', 'secre')).toBeUndefined();
    expect(typedFieldChangeRefusal(['bank_pw'], 'secret', 'secret')).toBeUndefined();
    expect(typedFieldChangeRefusal(['bank_pw'], '', 'anything')).toBeUndefined();
  });

  it('adding to its text is refused: only the rest would be typed, where the caret is', () => {
    expect(typedFieldChangeRefusal(['bank_pw'], 'secret', 'secret-and-more')).toBe(
      'the credential "bank_pw" was typed into this field, so until the page navigates a change step may replace its text whole, not add to it: editing its text would let the flow read back part of the secret',
    );
  });
});

it('an act step is refused while such a field is on its page', () => {
  expect(typedFieldActRefusal(['bank_pw'])).toBe(
    'the credential "bank_pw" was typed into a field of a page still open, so an act step may not run until that page navigates away: the agent presses keys of its own, and editing its text would let the flow read back part of the secret',
  );
});

it('a step that could edit such a field is refused while the run cannot find it again', () => {
  expect(typedFieldLostRefusal(['bank_pw'])).toBe(
    'the credential "bank_pw" was typed into a field of this page, which the run can no longer find to check that this step leaves it alone (as when the page comes back from the back/forward cache), so it refuses the step until that page navigates away: editing its text would let the flow read back part of the secret',
  );
});

it('a credential is not typed into a field that did not take the focus', () => {
  expect(unfocusedFieldRefusal(['user', 'pw'])).toBe(
    'the field did not take the focus (it is inert, hidden or disabled, or the page keeps the focus elsewhere), so the keys typing the credentials "user" and "pw" would go wherever the focus is, a frame of another origin included: nothing was typed',
  );
});
