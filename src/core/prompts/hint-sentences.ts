// Words whose period never ends a sentence (compared lower-case, without the final period).
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'vs',
  'cf',
  'approx',
  'esp',
  'incl',
  'resp',
  'mr',
  'mrs',
  'ms',
  'dr',
  'fig',
  'eq',
  'a.m',
  'p.m',
]);
const BULLET = /^\s*(?:[-*•+]|\d{1,2}[.)])\s+/;
const ENDS_SENTENCE = /[.!?。！？:;]["'”’)]*$/;
// A sentence end: terminal punctuation (and closing quotes or brackets), a space, then what can start a sentence.
const BOUNDARY = /([.!?。！？]["'”’)\]]*)\s+(?=["'“‘([]?[A-Z0-9])|([。！？])/g;

// True when the period at `period` ends an abbreviation: the word before it, read back to a space
// or the sentence's `start` (each word is read once, so splitting stays linear in the text).
function abbreviationAt(text: string, start: number, period: number): boolean {
  let from = period;
  while (from > start && !/\s/.test(text[from - 1]!)) from--;
  const word = text
    .slice(from, period)
    .toLowerCase()
    .replace(/^["'“‘(]+/, '');
  return ABBREVIATIONS.has(word);
}

// A bullet or numbered item as a sentence: no marker, and a period when it has no closing punctuation.
function bulletSentence(line: string): string {
  const item = line.replace(BULLET, '').trim();
  return item === '' || ENDS_SENTENCE.test(item) ? item : `${item}.`;
}

/**
 * Joins a reply's lines into running text: a bullet or numbered line loses its marker and gets a
 * period when it has no closing punctuation, so each item is a sentence; other lines are joined
 * with a space.
 */
export function joinLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => (BULLET.test(line) ? bulletSentence(line) : line.trim()))
    .filter((line) => line !== '')
    .join(' ');
}

/**
 * Splits running text into sentences, never inside one: a period after an abbreviation (e.g.,
 * i.e., vs., Dr.) ends no sentence, and a decimal (2.5) or a period not followed by a space and a
 * capital, digit or opening quote ends none either.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(BOUNDARY)) {
    const end = match.index + (match[1] ?? match[2]!).length;
    if (match[1]?.startsWith('.') && abbreviationAt(text, start, match.index)) continue;
    sentences.push(text.slice(start, end).trim());
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest !== '') sentences.push(rest);
  return sentences.filter((sentence) => sentence !== '');
}

/**
 * The first whole sentences of a text, at most `maxSentences` and `maxWords` words; a first
 * sentence longer than `maxWords` alone is cut at `maxWords` words (the only cut inside a sentence).
 */
export function wholeSentences(text: string, maxSentences: number, maxWords: number): string {
  const kept: string[] = [];
  let words = 0;
  for (const sentence of splitSentences(text).slice(0, maxSentences)) {
    const count = sentence.split(/\s+/).length;
    if (words + count > maxWords) break;
    kept.push(sentence);
    words += count;
  }
  return kept.length > 0 ? kept.join(' ') : text.split(/\s+/).slice(0, maxWords).join(' ');
}
