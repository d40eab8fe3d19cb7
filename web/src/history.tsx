import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, type ConversationTurn } from './api.js';
import { useResource } from './ui/resource.js';
import { memoryApi, ownerLabel, ownerOf, type KnownConversation } from './views/memory/requests.js';

/** The picker's value of a conversation the agent knows (as the Memory tab keys them), or of every turn. */
const keyOf = (conversation: KnownConversation) =>
  conversation.roomId !== null ? `room:${conversation.roomId}` : `user:${conversation.userId}`;
const everyTurn = 'every';
const typedIn = 'typed';

/**
 * Stored conversation turns, newest first, a page at a time: of a
 * conversation the agent knows (picked from a list, the most recent first
 * shown at once), of every turn, or of a user and/or room typed in.
 */
export function History({ agentId }: { agentId: string }) {
  const [conversations] = useResource((signal) => memoryApi.conversations(agentId, signal), [agentId]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [userId, setUserId] = useState('');
  const [roomId, setRoomId] = useState('');
  const [turns, setTurns] = useState<ConversationTurn[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  // Only the newest request may fill the list: picking another conversation while one loads drops the first.
  const latest = useRef(0);
  // Set once the user types a user or room: the list arriving later must not replace what they typed.
  const typed = useRef(false);

  const load = async (selector: { userId: string; roomId: string }, after: string | null) => {
    const request = ++latest.current;
    setLoading(true);
    setProblem(null);
    try {
      const page = await api.listMessages(agentId, {
        userId: selector.userId.trim() || undefined,
        roomId: selector.roomId.trim() || undefined,
        limit: 20,
        cursor: after ?? undefined,
      });
      if (request !== latest.current) return;
      setTurns(after ? [...(turns ?? []), ...page.data] : page.data);
      setCursor(page.pagination.hasMore ? page.pagination.nextCursor : null);
    } catch (caught) {
      if (request !== latest.current) return;
      setProblem(caught instanceof ApiError ? caught.message : 'The history could not be loaded.');
    } finally {
      if (request === latest.current) setLoading(false);
    }
  };

  const known = conversations.status === 'ready' ? conversations.data.data : [];
  const pick = (key: string) => {
    setChosen(key);
    const conversation = known.find((candidate) => keyOf(candidate) === key);
    const owner = conversation ? ownerOf(conversation) : null;
    const selector = {
      userId: owner && 'userId' in owner ? owner.userId : '',
      roomId: owner && 'roomId' in owner ? owner.roomId : '',
    };
    setUserId(selector.userId);
    setRoomId(selector.roomId);
    void load(selector, null);
  };

  // The history opens on the conversation the agent knows first, as the Memory tab does.
  useEffect(() => {
    if (conversations.status === 'ready' && chosen === null && !typed.current && known.length > 0) {
      pick(keyOf(known[0]!));
    }
  }, [conversations]);

  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {conversations.status === 'loading' && <p class="state-loading">Loading conversations…</p>}
      {conversations.status === 'error' && (
        <p class="problem" role="alert">
          {conversations.message}
        </p>
      )}
      {conversations.status === 'ready' && known.length === 0 && (
        <p class="hint">
          This agent has no conversations yet: they appear here with the first message of a user or room.
        </p>
      )}
      {known.length > 0 && (
        <div class="field">
          <label for="history-conversation">Conversation</label>
          <select
            id="history-conversation"
            value={chosen ?? keyOf(known[0]!)}
            onChange={(event) => pick(event.currentTarget.value)}
          >
            {known.map((conversation) => (
              <option key={keyOf(conversation)} value={keyOf(conversation)}>
                {ownerLabel(ownerOf(conversation))} ({conversation.turns} turns)
              </option>
            ))}
            <option value={everyTurn}>every turn of the agent</option>
            {chosen === typedIn && <option value={typedIn}>the user or room typed below</option>}
          </select>
        </div>
      )}
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setChosen(typedIn);
          void load({ userId, roomId }, null);
        }}
      >
        <div class="field">
          <label for="history-user">User id</label>
          <input
            id="history-user"
            type="text"
            value={userId}
            onInput={(event) => {
              typed.current = true;
              setUserId(event.currentTarget.value);
            }}
          />
        </div>
        <div class="field">
          <label for="history-room">Room id</label>
          <input
            id="history-room"
            type="text"
            value={roomId}
            onInput={(event) => {
              typed.current = true;
              setRoomId(event.currentTarget.value);
            }}
          />
        </div>
        <div class="actions">
          <button type="submit" disabled={loading}>
            Show history
          </button>
        </div>
      </form>
      <p class="hint">Newest first. Or type a user and/or room; leave both empty for every turn of the agent.</p>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <p role="status" class="list-status">
        {loading ? 'Loading…' : turns ? `${turns.length} turn${turns.length === 1 ? '' : 's'} shown` : ''}
      </p>
      {turns && turns.length > 0 && (
        <ol class="history">
          {turns.map((turn) => (
            <li key={turn.id} class={`turn turn-${turn.role}`}>
              <span class="who">
                {turn.role === 'user' ? (turn.userId ?? 'user') : turn.role === 'tool' ? 'tool' : 'agent'}
                {turn.roomId ? ` in ${turn.roomId}` : ''}
              </span>{' '}
              <time class="hint" dateTime={turn.createdAt}>
                {new Date(turn.createdAt).toLocaleString()}
              </time>
              {turn.tool ? (
                <p class="tool-call">
                  Tool {turn.tool.name} <code>{JSON.stringify(turn.tool.input)}</code>
                  {turn.tool.error !== undefined ? ` failed: ${turn.tool.error}` : ' → '}
                  {turn.tool.output !== undefined && <code>{JSON.stringify(turn.tool.output)}</code>}
                </p>
              ) : (
                <p class="text">{turn.text}</p>
              )}
            </li>
          ))}
        </ol>
      )}
      {cursor && (
        <button
          type="button"
          class="secondary"
          disabled={loading}
          onClick={() => void load({ userId, roomId }, cursor)}
        >
          Load older turns
        </button>
      )}
    </section>
  );
}
