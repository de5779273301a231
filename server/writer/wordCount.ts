/**
 * Words per Unicode text segmentation (UAX #29 plus ICU's dictionaries), so Chinese, Japanese and
 * Thai, which put no spaces between words, count right. The locale is fixed so a count does not
 * depend on the server's LANG; ICU segments those scripts by dictionary in any locale.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

export function countWords(text: string): number {
  let n = 0;
  for (const s of segmenter.segment(text)) if (s.isWordLike) n++;
  return n;
}
