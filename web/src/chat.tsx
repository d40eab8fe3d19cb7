import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, streamMessage, type Agent } from './api.js';
import { applyReplyEvent, type Entry, type ReplyEvent } from './views/chat/reply-state.js';
import type { Approval } from './views/chat/requests.js';
import { Turn } from './views/chat/turn.js';
import { followRunEvents, getRun } from './views/runs/requests.js';

const emptyReply = { text: '', tools: [], approvals: [], citations: [] };

/**
 * Talk to the agent: replies stream in from server-sent events, tool calls
 * shown as they happen. A reply that pauses for approval shows the calls it
 * waits on, decided in place; the rest of the reply (the run the decision
 * starts) follows it in the chat as it streams.
 */
export function Chat({ agent }: { agent: Agent }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [userId, setUserId] = useState('dashboard');
  const [roomId, setRoomId] = useState('');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  /** The resumed runs followed, by run id: each once, all stopped when the chat goes. */
  const followed = useRef(new Map<string, AbortController>());
  const counter = useRef(0);
  const streaming = controller.current !== null;

  useEffect(
    () => () => {
      controller.current?.abort();
      followed.current.forEach((follower) => follower.abort());
    },
    [],
  );

  const update = (key: number, change: (entry: Entry) => Entry) =>
    setEntries((current) => current.map((entry) => (entry.key === key ? change(entry) : entry)));

  const send = async (event: Event) => {
    event.preventDefault();
    const message = text.trim();
    if (!message || controller.current) return;
    setProblem(null);
    setText('');
    const abort = new AbortController();
    controller.current = abort;
    const replyKey = (counter.current += 2);
    const updateLast = (change: (entry: Entry) => Entry) => update(replyKey, change);
    setEntries((current) => [
      ...current,
      { key: replyKey - 1, role: 'user', ...emptyReply, text: message },
      { key: replyKey, role: 'agent', ...emptyReply, streaming: true },
    ]);
    try {
      const body = {
        text: message,
        ...(userId.trim() ? { userId: userId.trim() } : {}),
        ...(roomId.trim() ? { roomId: roomId.trim() } : {}),
      };
      for await (const item of streamMessage(agent.id, body, abort.signal)) {
        updateLast((entry) => applyReplyEvent(entry, item));
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

  /** The rest of a paused reply, right after it: the resumed run's events as they come, its reply if they fail. */
  const follow = async (pausedKey: number, runId: string) => {
    if (followed.current.has(runId)) return;
    const abort = new AbortController();
    followed.current.set(runId, abort);
    const key = ++counter.current;
    setEntries((current) => {
      const index = current.findIndex((entry) => entry.key === pausedKey);
      const resumed: Entry = { key, role: 'agent', ...emptyReply, runId, resumed: true, streaming: true };
      return [...current.slice(0, index + 1), resumed, ...current.slice(index + 1)];
    });
    let ended = false;
    try {
      for await (const event of followRunEvents(agent.id, runId, abort.signal)) {
        const replyEvent = event as unknown as ReplyEvent;
        if (replyEvent.type === 'message.completed' || replyEvent.type === 'message.failed') ended = true;
        update(key, (entry) => applyReplyEvent(entry, replyEvent));
      }
    } catch {
      if (abort.signal.aborted) return;
    }
    if (ended) return;
    // The events stopped short of the end (the connection dropped, or they expired): the run's record has the reply.
    const run = await getRun(agent.id, runId, abort.signal).catch(() => null);
    if (abort.signal.aborted) return;
    update(key, (entry) =>
      run?.reply
        ? applyReplyEvent(entry, { type: 'message.completed', data: run.reply })
        : {
            ...entry,
            streaming: false,
            problem: run
              ? `The run is ${run.status}; its run page has the rest.`
              : 'The rest of the reply could not be read.',
          },
    );
  };

  const onDecided = (paused: Entry, decided: Approval) => {
    const decision = { status: decided.status, reason: decided.reason, resumedRunId: decided.resumedRunId };
    update(paused.key, (entry) => ({
      ...entry,
      approvals: entry.approvals.map((approval) =>
        approval.approvalId === decided.id && decision.status !== 'pending'
          ? { ...approval, decision: { ...decision, status: decision.status } }
          : approval,
      ),
    }));
    if (decided.resumedRunId) void follow(paused.key, decided.resumedRunId);
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
            <Turn
              key={entry.key}
              entry={entry}
              agentId={agent.id}
              speaker={entry.role === 'user' ? userId || 'You' : agent.name}
              onDecided={onDecided}
            />
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
