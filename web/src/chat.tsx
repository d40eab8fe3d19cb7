import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, streamMessage, type Agent } from './api.js';

interface ToolLine {
  toolCallId: string;
  name: string;
  input: unknown;
  output?: unknown;
  error?: string;
  durationMs?: number;
}

interface Entry {
  key: number;
  role: 'user' | 'agent';
  text: string;
  tools: ToolLine[];
  /** Set once the reply has ended. */
  finishReason?: string;
  problem?: string;
  streaming?: boolean;
}

const brief = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? '' : text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** Talk to the agent: replies stream in from server-sent events, tool calls shown as they happen. */
export function Chat({ agent }: { agent: Agent }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [userId, setUserId] = useState('dashboard');
  const [roomId, setRoomId] = useState('');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const counter = useRef(0);
  const streaming = controller.current !== null;

  useEffect(() => () => controller.current?.abort(), []);

  const updateLast = (change: (entry: Entry) => Entry) =>
    setEntries((current) => current.map((entry, index) => (index === current.length - 1 ? change(entry) : entry)));

  const send = async (event: Event) => {
    event.preventDefault();
    const message = text.trim();
    if (!message || controller.current) return;
    setProblem(null);
    setText('');
    const abort = new AbortController();
    controller.current = abort;
    counter.current += 2;
    setEntries((current) => [
      ...current,
      { key: counter.current - 1, role: 'user', text: message, tools: [] },
      { key: counter.current, role: 'agent', text: '', tools: [], streaming: true },
    ]);
    try {
      const body = {
        text: message,
        ...(userId.trim() ? { userId: userId.trim() } : {}),
        ...(roomId.trim() ? { roomId: roomId.trim() } : {}),
      };
      for await (const item of streamMessage(agent.id, body, abort.signal)) {
        if (item.type === 'message.delta') updateLast((entry) => ({ ...entry, text: entry.text + item.data.text }));
        else if (item.type === 'tool.called') {
          const { toolCallId, name, input } = item.data;
          updateLast((entry) => ({ ...entry, tools: [...entry.tools, { toolCallId, name, input }] }));
        } else if (item.type === 'tool.completed') {
          const done = item.data;
          updateLast((entry) => ({
            ...entry,
            tools: entry.tools.some((tool) => tool.toolCallId === done.toolCallId)
              ? entry.tools.map((tool) => (tool.toolCallId === done.toolCallId ? { ...tool, ...done } : tool))
              : [...entry.tools, done],
          }));
        } else if (item.type === 'message.completed') {
          updateLast((entry) => ({
            ...entry,
            text: item.data.text,
            finishReason: item.data.finishReason,
            streaming: false,
          }));
        } else if (item.type === 'message.failed') {
          updateLast((entry) => ({
            ...entry,
            problem: item.data.error.detail,
            finishReason: 'error',
            streaming: false,
          }));
        }
      }
    } catch (caught) {
      if (abort.signal.aborted) updateLast((entry) => ({ ...entry, finishReason: 'aborted', streaming: false }));
      else {
        const detail = caught instanceof ApiError ? caught.message : 'The server could not be reached.';
        setProblem(detail);
        updateLast((entry) => ({ ...entry, problem: detail, streaming: false }));
      }
    } finally {
      updateLast((entry) => ({ ...entry, streaming: false }));
      controller.current = null;
      setEntries((current) => [...current]);
    }
  };

  return (
    <section class="chat" aria-labelledby="chat-title">
      <h2 id="chat-title">Chat with {agent.name}</h2>
      <div class="grid">
        <div class="field">
          <label for="chat-user">User id</label>
          <input id="chat-user" type="text" value={userId} onInput={(event) => setUserId(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="chat-room">Room id (optional)</label>
          <input id="chat-room" type="text" value={roomId} onInput={(event) => setRoomId(event.currentTarget.value)} />
        </div>
      </div>
      <div role="log" aria-live="polite" aria-label="Conversation">
        <ol class="transcript">
          {entries.map((entry) => (
            <li key={entry.key} class={`turn turn-${entry.role}`} aria-busy={entry.streaming ? 'true' : undefined}>
              <span class="who">{entry.role === 'user' ? userId || 'You' : agent.name}</span>
              {entry.tools.map((tool) => (
                <div class="tool-call" data-tool={tool.name}>
                  <span class="tool-name">Tool {tool.name}</span> <code>{brief(tool.input)}</code>
                  {tool.error !== undefined ? (
                    <span class="tool-error"> failed: {tool.error}</span>
                  ) : tool.output !== undefined ? (
                    <>
                      {' → '}
                      <code class="tool-output">{brief(tool.output)}</code>
                      {tool.durationMs !== undefined && <span class="hint"> ({tool.durationMs} ms)</span>}
                    </>
                  ) : (
                    <span class="hint"> running…</span>
                  )}
                </div>
              ))}
              <p class="text">{entry.text || (entry.streaming ? '…' : '')}</p>
              {entry.problem && <p class="problem">{entry.problem}</p>}
              {entry.finishReason && entry.finishReason !== 'stop' && (
                <p class="hint">Finished: {entry.finishReason}</p>
              )}
            </li>
          ))}
        </ol>
      </div>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <form class="composer" onSubmit={send}>
        <label for="chat-text">Message</label>
        <textarea
          id="chat-text"
          rows={2}
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Enter sends, Shift+Enter starts a new line, as chat tools do.
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div class="actions">
          <button type="submit" disabled={streaming}>
            Send
          </button>
          {streaming && (
            <button type="button" class="secondary" onClick={() => controller.current?.abort()}>
              Stop
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
