import type { Executor } from '../schema.js';

export class MessageRepository {
  constructor(private readonly db: Executor) {}

  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<number> {
    const result = await executor.deleteFrom('messages').where('agent_id', '=', agentId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
