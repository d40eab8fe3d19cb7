import { estimateTokens } from '../../conversation/tokens.js';

/**
 * Splitting a document's text into chunks by its structure: sections start
 * at headings (`#` lines; HTML and PDF text arrive with theirs marked so or
 * without any), chunks are whole paragraphs packed up to a token bound, a
 * paragraph too long for one chunk is cut at sentences (then words), and each
 * chunk after the first of a section repeats the end of the one before it, so
 * an answer that straddles a cut is whole in at least one chunk.
 */
export interface TextChunk {
  /** The section's headings, outermost first, joined with " > "; null before any heading. */
  heading: string | null;
  content: string;
  tokenCount: number;
}

export interface ChunkingOptions {
  maxTokens: number;
  overlapTokens: number;
}

/** About a third of a page per chunk: small enough to cite precisely, large enough to hold an answer. */
export const defaultChunking: ChunkingOptions = { maxTokens: 300, overlapTokens: 50 };

/** A piece's tokens, counting the separator that joins it to the next, so a joined chunk stays within the bound. */
const costOf = (piece: string) => estimateTokens(piece) + 1;

const headingLine = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

interface Section {
  heading: string | null;
  paragraphs: string[];
}

function sectionsOf(text: string): Section[] {
  const sections: Section[] = [];
  const path: string[] = [];
  let current: Section = { heading: null, paragraphs: [] };
  let paragraph: string[] = [];
  const endParagraph = () => {
    const joined = paragraph.join('\n').trim();
    if (joined !== '') current.paragraphs.push(joined);
    paragraph = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = headingLine.exec(line);
    if (heading) {
      endParagraph();
      if (current.paragraphs.length > 0) sections.push(current);
      const level = heading[1]!.length;
      path.length = Math.min(path.length, level - 1);
      path[level - 1] = heading[2]!;
      current = { heading: path.filter(Boolean).join(' > '), paragraphs: [] };
    } else if (line.trim() === '') {
      endParagraph();
    } else {
      paragraph.push(line);
    }
  }
  endParagraph();
  if (current.paragraphs.length > 0) sections.push(current);
  return sections;
}

/** Pieces of at most `maxTokens`: the paragraph itself, else its sentences, else runs of words. */
function piecesOf(paragraph: string, maxTokens: number): string[] {
  if (estimateTokens(paragraph) <= maxTokens) return [paragraph];
  const pieces: string[] = [];
  for (const sentence of paragraph.split(/(?<=[.!?])\s+/)) {
    if (estimateTokens(sentence) <= maxTokens) {
      pieces.push(sentence);
      continue;
    }
    let run = '';
    for (const word of sentence.split(/\s+/)) {
      const next = run === '' ? word : `${run} ${word}`;
      if (run !== '' && estimateTokens(next) > maxTokens) {
        pieces.push(run);
        run = word;
      } else {
        run = next;
      }
    }
    if (run !== '') pieces.push(run);
  }
  // A single "word" longer than the bound (a long URL, base64) is cut by characters.
  return pieces.flatMap((piece) => {
    const maxCharacters = maxTokens * 4;
    if (piece.length <= maxCharacters) return [piece];
    const cut: string[] = [];
    for (let start = 0; start < piece.length; start += maxCharacters)
      cut.push(piece.slice(start, start + maxCharacters));
    return cut;
  });
}

/** The end of a chunk worth repeating: its last pieces up to the overlap, or the last words of its last piece. */
function overlapOf(pieces: string[], overlapTokens: number): string[] {
  if (overlapTokens <= 0) return [];
  const kept: string[] = [];
  let tokens = 0;
  for (let index = pieces.length - 1; index >= 0; index -= 1) {
    const cost = costOf(pieces[index]!);
    if (tokens + cost > overlapTokens) break;
    kept.unshift(pieces[index]!);
    tokens += cost;
  }
  if (kept.length > 0) return kept;
  const words = pieces[pieces.length - 1]!.split(/\s+/);
  const tail: string[] = [];
  for (let index = words.length - 1; index >= 0; index -= 1) {
    if (estimateTokens([words[index], ...tail].join(' ')) > overlapTokens) break;
    tail.unshift(words[index]!);
  }
  return tail.length > 0 ? [tail.join(' ')] : [];
}

export function chunkText(text: string, options: ChunkingOptions = defaultChunking): TextChunk[] {
  const chunks: TextChunk[] = [];
  for (const section of sectionsOf(text)) {
    let pieces: string[] = [];
    let tokens = 0;
    /** How many of `pieces` repeat the previous chunk: a chunk of nothing new is never emitted. */
    let repeated = 0;
    const emit = () => {
      if (pieces.length > repeated) {
        // Pieces of one paragraph are sentences again; paragraphs stay apart.
        const content = pieces
          .map((piece, index) => (index === 0 ? '' : starts.has(piece) ? '\n\n' : ' ') + piece)
          .join('');
        chunks.push({ heading: section.heading, content, tokenCount: estimateTokens(content) });
      }
    };
    const starts = new Set<string>();
    for (const paragraph of section.paragraphs) {
      const paragraphPieces = piecesOf(paragraph, options.maxTokens);
      starts.add(paragraphPieces[0]!);
      for (const piece of paragraphPieces) {
        const cost = costOf(piece);
        if (pieces.length > repeated && tokens + cost > options.maxTokens) {
          emit();
          pieces = overlapOf(pieces, Math.min(options.overlapTokens, options.maxTokens - cost));
          repeated = pieces.length;
          tokens = pieces.reduce((sum, each) => sum + costOf(each), 0);
        }
        pieces.push(piece);
        tokens += cost;
      }
    }
    emit();
  }
  return chunks;
}
