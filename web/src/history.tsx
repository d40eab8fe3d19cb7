import { useState } from 'preact/hooks';
import { ApiError, api, type ConversationTurn } from './api.js';

/** Stored conversation turns by user and/or room, newest first, a page at a time. */
export function History({ agentId }: { agentId: string }) {
  const [userId, setUserId] = useState('dashboard');
  const [roomId, setRoomId] = useState('');
  const [turns, setTurns] = useState<ConversationTurn[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const load = async (after: string | null) => {
    setLoading(true);
    setProblem(null);
    try {
      const page = await api.listMessages(agentId, {
        userId: userId.trim() || undefined,
        roomId: roomId.trim() || undefined,
        limit: 20,
        cursor: after ?? undefined,
      });
      setTurns(after ? [...(turns ?? []), ...page.data] : page.data);
      setCursor(page.pagination.hasMore ? page.pagination.nextCursor : null);
    } catch (caught) {
      setProblem(caught instanceof ApiError ? caught.message : 'The history could not be loaded.');
    } finally {
      setLoading(false);
    }
  };

  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          void load(null);
        }}
      >
        <div class="field">
          <label for="history-user">User id</label>
          <input
            id="history-user"
            type="text"
            value={userId}
            onInput={(event) => setUserId(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="history-room">Room id</label>
          <input
            id="history-room"
            type="text"
            value={roomId}
            onInput={(event) => setRoomId(event.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="submit" disabled={loading}>
            Show history
          </button>
        </div>
      </form>
      <p class="hint">Newest first. Leave both empty for every turn of the agent.</p>
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
        <button type="button" class="secondary" disabled={loading} onClick={() => void load(cursor)}>
          Load older turns
        </button>
      )}
    </section>
  );
}
