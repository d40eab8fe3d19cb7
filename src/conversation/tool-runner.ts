import type { Logger } from 'pino';
import type { Tool } from '../plugins/plugin.js';
import { ToolError } from '../plugins/plugin.js';
import type { Toolbox } from '../plugins/toolsets.js';
import type { ToolCallPart } from '../providers/model-adapter.js';
import type { AttachmentView } from '../schemas/files.js';
import type { StoredToolCall } from './history-window.js';
import { ToolInputValidators } from './tool-input-validators.js';

/**
 * Runs one tool call the model asked for, within the limits of a reply: the
 * input must be JSON that matches the tool's schema, the tool gets a time-out
 * (and the client's abort), and its output is capped before the model sees
 * it. Whatever goes wrong becomes the call's `error`, which the model reads:
 * a tool never fails a reply.
 */
export interface ToolLimits {
  timeoutMs: number;
  /** Bytes of output given back to the model; the rest is cut, with a marker saying so. */
  outputBytes: number;
}

const validators = new ToolInputValidators();

function parseInput(text: string): { value: unknown } | { error: string } {
  if (text.trim() === '') return { value: {} };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: 'The tool input is not valid JSON.' };
  }
}

/** The model's input as JSON when it parses, else as the text it wrote (for events and storage). */
export function parsedToolInput(text: string): unknown {
  const parsed = parseInput(text);
  return 'value' in parsed ? parsed.value : text;
}

function capped(output: unknown, limit: number): unknown {
  const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null');
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= limit) return output === undefined ? null : output;
  const kept = Buffer.from(text, 'utf8')
    .subarray(0, limit)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${kept}\n[truncated: the output was ${bytes} bytes; only the first ${limit} are shown]`;
}

/** Thrown when the client went away while a tool ran; the call is recorded, the reply ends as aborted. */
export class ToolCallAborted extends Error {
  constructor(readonly call: StoredToolCall) {
    super('The reply was aborted while a tool ran.');
  }
}

export async function runToolCall(
  toolbox: Toolbox,
  call: ToolCallPart,
  limits: ToolLimits,
  clientSignal: AbortSignal,
  logger: Logger,
  /** Records a call's intent in its run's journal (ToolCallContext.recordIntent). */
  recordIntent?: (detail: Record<string, unknown>) => Promise<void>,
): Promise<StoredToolCall> {
  const started = performance.now();
  const parsed = parseInput(call.input);
  const base = {
    toolCallId: call.toolCallId,
    name: call.toolName,
    input: 'value' in parsed ? parsed.value : call.input,
  };
  const attachments: AttachmentView[] = [];
  const finish = (outcome: { output: unknown } | { error: string }): StoredToolCall => ({
    ...base,
    ...outcome,
    ...(attachments.length > 0 ? { attachments } : {}),
    durationMs: Math.round(performance.now() - started),
  });

  if ('error' in parsed) return finish(parsed);
  const tool = toolbox.tools.get(call.toolName);
  if (tool === undefined) {
    return finish({
      error: `There is no tool named ${call.toolName}; use one of: ${[...toolbox.tools.keys()].join(', ')}.`,
    });
  }
  const validate = validators.validatorOf(tool, logger);
  if (validate !== null && !validate(parsed.value)) {
    const [first] = validate.errors ?? [];
    return finish({
      error: `The input does not match the tool's schema: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim(),
    });
  }

  // The client went away before the call began: it is not started (and a signal already aborted fires no event).
  if (clientSignal.aborted) throw new ToolCallAborted(finish({ error: 'The reply was aborted before the tool ran.' }));
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), limits.timeoutMs);
  const signal = AbortSignal.any([clientSignal, timeout.signal]);
  let stop: () => void = () => undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
  });
  stopped.catch(() => undefined);
  try {
    // A tool that ignores its signal is not waited for: the race ends the call at the time-out or abort.
    const output = await Promise.race([
      tool.execute(parsed.value, {
        abortSignal: signal,
        attach: (produced) => {
          attachments.push(...produced);
        },
        ...(recordIntent !== undefined ? { recordIntent } : {}),
      }),
      stopped,
    ]);
    return finish({ output: capped(output, limits.outputBytes) });
  } catch (error) {
    if (clientSignal.aborted) throw new ToolCallAborted(finish({ error: 'The reply was aborted while the tool ran.' }));
    if (timeout.signal.aborted) return finish({ error: `The tool did not finish within ${limits.timeoutMs} ms.` });
    if (error instanceof ToolError) return finish({ error: error.message });
    // Not the error itself: an unexpected error may quote what the tool was given (a secret).
    logger.warn({ tool: call.toolName, reason: (error as Error)?.name }, 'tool failed unexpectedly');
    return finish({ error: 'The tool failed unexpectedly.' });
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}
