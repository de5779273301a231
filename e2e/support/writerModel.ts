import { startFakeModel, type FakeModel } from '../../test/helpers/fakeModel.ts';

/** What the e2e writer's model answers, word by word, slowly enough to be seen streaming. */
export const FAKE_TEXT =
  'The harbour woke slowly that morning. Gulls argued over the nets while the first boats slid out past the breakwater, ' +
  'their engines low and patient. By noon the fog had lifted and the whole town smelled of salt and bread.';

const WORDS = FAKE_TEXT.split(' ');

/** The suite's one fake model (test/helpers/fakeModel.ts) on `port`, answering every request with FAKE_TEXT. */
export function startWriterModel(port: number): Promise<FakeModel> {
  return startFakeModel({
    port,
    fallback: {
      kind: 'reply',
      text: WORDS.map((w, i) => (i ? ` ${w}` : w)),
      chunkDelayMs: 60,
      usage: { input_tokens: 12, output_tokens: WORDS.length },
    },
  });
}
