/** Discord refuses a message longer than this many characters (UTF-16 code units, as JavaScript counts). */
export const discordMessageLimit = 2000;

/**
 * Cuts a reply into messages Discord accepts, in order, losing nothing: the
 * pieces joined give the text back. Each cut is made after the last line break
 * within the limit, else after the last space, else at the limit itself, never
 * between the two halves of a surrogate pair (an emoji would break in two).
 * A break in the first half of the window is passed over, so that no piece is
 * a sliver (or nothing but a line break, which Discord refuses as empty).
 */
export function splitMessage(text: string, limit = discordMessageLimit): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit);
    const least = Math.floor(limit / 2);
    let cut = window.lastIndexOf('\n') + 1;
    if (cut <= least) cut = window.lastIndexOf(' ') + 1;
    if (cut <= least) {
      cut = limit;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}
