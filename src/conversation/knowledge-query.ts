/**
 * The words of a message worth searching knowledge for: letters and digits,
 * lower-cased, without very common words, at most a bounded number. Both
 * full-text engines get the same list, each in its own syntax, and because
 * only letters and digits survive no user input can reach their query syntax.
 */
const maxTerms = 32;
const minLength = 2;

const stopWords = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there these they this to too us was we were what ' +
    'when where which who why will with would you your about tell know please'
  ).split(' '),
);

export function searchTermsOf(text: string): string[] {
  const terms = new Set<string>();
  for (const match of text
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (word.length < minLength || stopWords.has(word)) continue;
    terms.add(word);
    if (terms.size >= maxTerms) break;
  }
  return [...terms];
}
