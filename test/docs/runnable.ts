import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fencedBlocks } from './markdown.js';

/**
 * Runs a page's `sh runnable` blocks the way a reader would, one after the
 * other in one bash session, and checks what the page says they print. The
 * rules are in test/docs/runnable-blocks.test.ts and docs/writing-docs.md.
 */

export const runnableInfo = 'sh runnable';
/** `# → {json}`: what the command above the line prints. */
const marker = /^\s*# →\s*(.*)$/;

/** The code between two `# →` lines of a block (or the block's start or end) and what it should print. */
export interface Segment {
  /** Its lines, as written. */
  code: string;
  /** The line of the page the segment starts on. */
  line: number;
  /** The marker after it: its line and the JSON it holds (or why it does not parse), or null when none. */
  expectation: { line: number; json: unknown; invalid: string | null } | null;
}

/** The segments of every `sh runnable` block of a page, in order. */
export function runnableSegments(markdown: string): Segment[] {
  return fencedBlocks(markdown)
    .filter((block) => block.info === runnableInfo)
    .flatMap((block) => {
      const segments: Segment[] = [];
      let code: string[] = [];
      let start = block.line + 1;
      block.code.split('\n').forEach((text, index) => {
        const line = block.line + 1 + index;
        const match = marker.exec(text);
        if (!match) {
          code.push(text);
          return;
        }
        let json: unknown = null;
        let invalid: string | null = null;
        try {
          json = JSON.parse(match[1] as string);
        } catch (error) {
          invalid = (error as Error).message;
        }
        segments.push({ code: code.join('\n'), line: start, expectation: { line, json, invalid } });
        code = [];
        start = line + 1;
      });
      if (code.some((text) => text.trim() !== '')) {
        segments.push({ code: code.join('\n'), line: start, expectation: null });
      }
      return segments;
    });
}

/**
 * Whether `actual` holds what `expected` says: every key of an expected object
 * is present, null meaning any value, other values equal (objects by these same
 * rules, arrays element by element and of the same length). Null when it does,
 * else where it does not.
 */
export function mismatch(actual: unknown, expected: unknown, where = '$'): string | null {
  if (expected === null) return actual === undefined ? `${where} is missing` : null;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${where} is not an array`;
    if (actual.length !== expected.length) return `${where} has ${actual.length} items, not ${expected.length}`;
    for (const [index, item] of expected.entries()) {
      const found = mismatch(actual[index], item, `${where}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof expected === 'object') {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return `${where} is not an object`;
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return `${where}.${key} is missing`;
      const found = mismatch((actual as Record<string, unknown>)[key], value, `${where}.${key}`);
      if (found) return found;
    }
    return null;
  }
  return actual === expected ? null : `${where} is ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`;
}

/** A command's output as JSON: all of it, else its last line (a command before it may have printed first). */
function parseOutput(output: string): { value: unknown } | null {
  const candidates = [output.trim(), output.trim().split('\n').at(-1) ?? ''];
  for (const candidate of candidates) {
    try {
      return { value: JSON.parse(candidate) };
    } catch {
      // try the next
    }
  }
  return null;
}

export interface RunnableFailure {
  /** The page's line the failure is about. */
  line: number;
  message: string;
}

export interface RunOptions {
  /** The environment of the session (AGENTD_URL, AGENTD_API_KEY, PATH…): nothing else of the test's leaks in. */
  env: Record<string, string>;
  /** The session's working directory. */
  cwd: string;
  /** The longest the blocks of one page may take together. */
  timeoutMs: number;
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * Runs the segments in one bash session, each with its output kept apart, and
 * returns what went wrong: a command that ended non-zero stops the session
 * (set -e, pipefail) and is reported with its standard error; each `# →` line
 * is checked against the output of its segment. An empty list: the page is right.
 */
export async function runSegments(segments: Segment[], options: RunOptions): Promise<RunnableFailure[]> {
  const outputs = fs.mkdtempSync(path.join(options.cwd, '.runnable-'));
  const script = [
    'set -eo pipefail',
    // Pages write `npx agentd …` as their readers do; here it is the repository's own command.
    'npx() { if [ "${1:-}" = agentd ]; then shift; agentd "$@"; else command npx "$@"; fi; }',
    ...segments.map((segment, index) => {
      const file = (kind: string) => shellQuote(path.join(outputs, `${index}.${kind}`));
      // `.done` marks a segment whose every command succeeded.
      return `{\n${segment.code}\n} > ${file('out')} 2> ${file('err')}\n: > ${file('done')}`;
    }),
  ].join('\n');
  const child = spawn('bash', ['--noprofile', '--norc', '-c', script], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let sessionError = '';
  child.stderr.on('data', (chunk) => (sessionError += String(chunk)));
  child.stdout.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);

  const read = (index: number, kind: 'out' | 'err' | 'done') => {
    const file = path.join(outputs, `${index}.${kind}`);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  };
  const failures: RunnableFailure[] = [];
  for (const [index, segment] of segments.entries()) {
    if (read(index, 'done') === null) {
      // The session stopped in this segment (a command failed, a syntax error, the time ran out).
      const reason = signal
        ? `were stopped (${signal}: the page's blocks took over ${options.timeoutMs} ms)`
        : `ended with exit status ${code}`;
      const errorOutput = `${read(index, 'err') ?? ''}${sessionError}`.trim();
      failures.push({
        line: segment.line,
        message: `the commands from line ${segment.line} ${reason}${errorOutput ? `:\n${errorOutput}` : ''}`,
      });
      break;
    }
    const expectation = segment.expectation;
    if (expectation === null) continue;
    if (expectation.invalid !== null) {
      failures.push({ line: expectation.line, message: `the # → line is not JSON (${expectation.invalid})` });
      continue;
    }
    const output = read(index, 'out') ?? '';
    const parsed = parseOutput(output);
    if (parsed === null) {
      failures.push({
        line: expectation.line,
        message: `the output above is not JSON: ${output.trim().slice(0, 500)}`,
      });
      continue;
    }
    const found = mismatch(parsed.value, expectation.json);
    if (found) {
      failures.push({
        line: expectation.line,
        message: `${found} in the output above: ${JSON.stringify(parsed.value).slice(0, 500)}`,
      });
    }
  }
  fs.rmSync(outputs, { recursive: true, force: true });
  return failures;
}
