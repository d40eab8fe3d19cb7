/**
 * Facts a user states about themselves, found by patterns: what the builtin
 * model extracts (offline and deterministic), so that memory works, and is
 * tested, with no model provider. Each fact has a subject key; a later fact
 * on the same subject replaces the earlier one ("I live in Porto" after
 * "I live in Lisbon").
 */
export interface ExtractedFact {
  /** What the fact is about: `name`, `location`, `preference:units`, … (lower-case). */
  subject: string;
  /** The fact as a short statement about the user, e.g. "name is Ana". */
  statement: string;
}

/** A value ends at a sentence or clause boundary, or at a joining word. */
const valueEnd = String.raw`(?=\s*(?:[.!?;,\n]|$|\s(?:and|but|so|because|though)\b))`;
const value = (max: number) => String.raw`([^.!?;,\n]{1,${max}}?)${valueEnd}`;
// Capitalised words (a full name), or one word when the user writes in lower case. Case matters here, so
// the name patterns spell their lead-in's cases out instead of using the `i` flag.
const nameValue = String.raw`(\p{Lu}[\p{L}'-]*(?:\s\p{Lu}[\p{L}'-]*){0,3}|\p{Ll}[\p{L}'-]*)`;

interface Pattern {
  pattern: RegExp;
  fact(match: RegExpMatchArray): ExtractedFact | null;
}

const words = (text: string) => text.trim().replace(/\s+/g, ' ');
const subjectWord = (text: string) =>
  (
    words(text)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.at(-1) ?? ''
  ).slice(0, 60);

const patterns: Pattern[] = [
  {
    pattern: new RegExp(String.raw`\b(?:[Mm]y\s+name\s+is|[Mm]y\s+name's|[Cc]all\s+me)\s+${nameValue}`, 'gu'),
    fact: (match) => ({ subject: 'name', statement: `name is ${words(match[1] as string)}` }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:I\s+am|I'm)\s+called\s+${nameValue}`, 'gu'),
    fact: (match) => ({ subject: 'name', statement: `name is ${words(match[1] as string)}` }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:i live in|i'm based in|i am based in|i live at)\s+${value(60)}`, 'giu'),
    fact: (match) => ({ subject: 'location', statement: `lives in ${words(match[1] as string)}` }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:i am from|i'm from|i come from)\s+${value(60)}`, 'giu'),
    fact: (match) => ({ subject: 'origin', statement: `is from ${words(match[1] as string)}` }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:i work as|i'm working as|i am working as)\s+(?:an?\s+)?${value(60)}`, 'giu'),
    fact: (match) => ({ subject: 'occupation', statement: `works as ${words(match[1] as string)}` }),
  },
  {
    pattern: new RegExp(String.raw`\b(?:i am|i'm)\s+(\d{1,3})\s+years?\s+old\b`, 'giu'),
    fact: (match) => ({ subject: 'age', statement: `is ${match[1]} years old` }),
  },
  {
    pattern: new RegExp(String.raw`\bmy favou?rite\s+([\p{L}\p{N} ]{1,30}?)\s+is\s+${value(60)}`, 'giu'),
    fact: (match) => {
      const thing = words(match[1] as string).toLowerCase();
      return { subject: `favorite:${thing}`, statement: `favorite ${thing} is ${words(match[2] as string)}` };
    },
  },
  {
    pattern: new RegExp(String.raw`\bi (?:prefer|like to use|always use)\s+${value(80)}`, 'giu'),
    fact: (match) => {
      const preferred = words(match[1] as string);
      // "I prefer metric units" and "I prefer imperial units" are about the same thing: units.
      const about = subjectWord(preferred.split(/\s+(?:over|to|rather than|instead of)\s+/i)[0] ?? preferred);
      return about === '' ? null : { subject: `preference:${about}`, statement: `prefers ${preferred}` };
    },
  },
];

/** The facts a message states about its sender, at most one per subject (the last one said wins). */
export function extractFacts(text: string): ExtractedFact[] {
  const bySubject = new Map<string, ExtractedFact>();
  const found: Array<{ index: number; fact: ExtractedFact }> = [];
  for (const { pattern, fact } of patterns) {
    for (const match of text.matchAll(pattern)) {
      const extracted = fact(match);
      if (extracted !== null) found.push({ index: match.index ?? 0, fact: extracted });
    }
  }
  found.sort((left, right) => left.index - right.index);
  for (const { fact } of found) bySubject.set(fact.subject, fact);
  return [...bySubject.values()];
}
