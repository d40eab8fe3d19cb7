import fs from 'node:fs';
import path from 'node:path';

/**
 * What the documentation tests read in a markdown file: its links, its
 * headings' anchors and its fenced blocks. Written for the markdown these
 * pages use (CommonMark with GitHub's tables), not as a full parser.
 */

export interface MarkdownLink {
  target: string;
  line: number;
}

export interface FencedBlock {
  info: string;
  code: string;
  /** The line of the opening fence. */
  line: number;
}

/** The lines of a file with fenced blocks' insides blanked, so that nothing in a code block counts as markdown. */
function proseLines(text: string): string[] {
  const lines = text.split('\n');
  let fence: string | null = null;
  return lines.map((line) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && opening) {
      fence = opening[1] as string;
      return '';
    }
    if (fence !== null) {
      if (new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(line)) fence = null;
      return '';
    }
    return line;
  });
}

/** Every fenced block, with its info string (`sh runnable`). */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const opening = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[index] as string);
    if (!opening) continue;
    const fence = opening[1] as string;
    const closing = new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`);
    const code: string[] = [];
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end] as string)) code.push(lines[end++] as string);
    blocks.push({ info: (opening[2] as string).trim(), code: code.join('\n'), line: index + 1 });
    index = end;
  }
  return blocks;
}

/** Inline code spans removed: a link written inside backticks is an example, not a link. */
const withoutCodeSpans = (line: string) => line.replace(/(`+)[^`]*?\1/g, '');

/** The targets of inline links and images, reference definitions, autolinks and HTML href/src attributes. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const add = (target: string) => links.push({ target: target.trim(), line: index + 1 });
    // [text](target "title") and ![alt](target): the target ends at a space (a title follows) or the parenthesis.
    for (const match of line.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+["'(][^)]*)?\)/g)) {
      add((match[1] as string).replace(/^<|>$/g, ''));
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (definition) add((definition[1] as string).replace(/^<|>$/g, ''));
    for (const match of line.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]*)"/gi)) add(match[1] as string);
  });
  return links;
}

/** A heading's anchor as GitHub makes it: its text lowercased, punctuation dropped, spaces made hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/<[^>]+>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a file's headings (ATX `#` headings and explicit `<a name|id>`) give, duplicates numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const lines = proseLines(text);
  lines.forEach((line, index) => {
    let heading: string | null = null;
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (atx) heading = atx[1] as string;
    // Setext: a line of text underlined with = or -.
    else if (/^ {0,3}(=+|-+)\s*$/.test(line) && index > 0 && (lines[index - 1] as string).trim() !== '') {
      const previous = lines[index - 1] as string;
      if (!/^\s*([-*+>]\s|\||#|\d+[.)]\s)/.test(previous)) heading = previous.trim();
    }
    for (const match of line.matchAll(/<a\s[^>]*?(?:name|id)="([^"]+)"/gi)) anchors.add(match[1] as string);
    if (heading === null) return;
    const slug = githubSlug(heading);
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  });
  return anchors;
}

/** The markdown files under `directory`, recursively, node_modules left out. */
export function markdownFilesUnder(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { withFileTypes: true })
    .sort((one, other) => one.name.localeCompare(other.name))
    .flatMap((entry) => {
      const full = path.join(directory, entry.name);
      if (entry.name === 'node_modules') return [];
      if (entry.isDirectory()) return markdownFilesUnder(full);
      return entry.name.endsWith('.md') ? [full] : [];
    });
}

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

const external = /^[a-z][a-z0-9+.-]*:/i;

/** The relative links of `file` that lead nowhere: a missing file, or an anchor no heading of its page gives. */
export function brokenLinks(file: string, anchorsOf: (file: string) => Set<string>): BrokenLink[] {
  const text = fs.readFileSync(file, 'utf8');
  return markdownLinks(text).flatMap(({ target, line }) => {
    if (target === '' || external.test(target) || target.startsWith('//')) return [];
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), pathPart);
    if (!fs.existsSync(resolved)) return [{ file, line, target, reason: 'no such file' }];
    if (anchor === null || anchor === '' || !resolved.endsWith('.md') || fs.statSync(resolved).isDirectory()) {
      return [];
    }
    if (/^L\d+(-L\d+)?$/.test(anchor)) return [];
    return anchorsOf(resolved).has(anchor) ? [] : [{ file, line, target, reason: 'no such heading' }];
  });
}
