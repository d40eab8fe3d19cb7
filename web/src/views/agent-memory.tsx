import { useState } from 'preact/hooks';
import type { Agent } from '../api.js';
import { Loaded, useResource } from '../ui/resource.js';
import { MemoryPanel } from './memory/memory-panel.js';
import { memoryApi, ownerLabel, ownerOf, type KnownConversation } from './memory/requests.js';

const keyOf = (conversation: KnownConversation) =>
  conversation.roomId !== null ? `room:${conversation.roomId}` : `user:${conversation.userId}`;

/** An agent's Memory tab: pick a user or room the agent knows, then read, correct or forget what it remembers. */
export function AgentMemory({ agent }: { agent: Agent; onChanged?: (agent: Agent) => void }) {
  const [conversations, reload] = useResource((signal) => memoryApi.conversations(agent.id, signal), [agent.id]);
  const [chosen, setChosen] = useState<string | null>(null);

  return (
    <section aria-labelledby="memory-title">
      <h2 id="memory-title" tabIndex={-1}>
        Memory
      </h2>
      <p class="hint">
        What the agent keeps beyond its context window: a rolling summary of each conversation, and facts about each
        user.
      </p>
      <Loaded
        resource={conversations}
        what="conversations"
        onRetry={reload}
        isEmpty={(list) => list.data.length === 0}
        empty={
          <p>This agent has no conversations yet: its memory starts with the first message from a user or room.</p>
        }
      >
        {(list) => {
          const current = list.data.find((conversation) => keyOf(conversation) === chosen) ?? list.data[0]!;
          return (
            <>
              <div class="field">
                <label for="memory-owner">User or room</label>
                <select
                  id="memory-owner"
                  value={keyOf(current)}
                  onChange={(event) => setChosen(event.currentTarget.value)}
                >
                  {list.data.map((conversation) => (
                    <option key={keyOf(conversation)} value={keyOf(conversation)}>
                      {ownerLabel(ownerOf(conversation))} ({conversation.turns} turns)
                    </option>
                  ))}
                </select>
              </div>
              <MemoryPanel key={keyOf(current)} agentId={agent.id} owner={ownerOf(current)} onForgotten={reload} />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
