import type { DurabilityDatabase } from './durability-database.js';

type KnowledgeItem = string | { title?: string; content: string };

/**
 * What a crash must never leave behind, read from the storage itself while
 * the server is down: turns of agents that no longer exist, half an exchange,
 * a file row whose bytes are missing or short,
 * an agent whose knowledge index is not its knowledge, maintained counts that
 * disagree with the rows, two agents from one create, and idempotency records
 * that answer with something other than an agent.
 */
export async function halfWrittenState(database: DurabilityDatabase): Promise<string[]> {
  const problems = await database.engineProblems();

  const [orphans] = await database.query<{ count: number | string }>(
    'select count(*) as count from messages where agent_id not in (select id from agents)',
  );
  if (Number(orphans!.count) > 0) problems.push(`${orphans!.count} conversation turns of agents that do not exist`);

  for (const file of await database.query<{
    id: string;
    agent_id: string;
    size_bytes: number | string;
    body_bytes: number | string;
  }>('select id, agent_id, size_bytes, length(body) as body_bytes from files')) {
    const stored = Number(file.body_bytes) > 0 ? Number(file.body_bytes) : database.fileBytes(file.agent_id, file.id);
    if (stored !== Number(file.size_bytes)) {
      problems.push(`file ${file.id} of ${file.agent_id}: ${stored ?? 'no'} bytes stored of ${file.size_bytes}`);
    }
  }
  const [orphanFiles] = await database.query<{ count: number | string }>(
    'select count(*) as count from files where agent_id not in (select id from agents)',
  );
  if (Number(orphanFiles!.count) > 0) problems.push(`${orphanFiles!.count} file rows of agents that do not exist`);

  const halves = await database.query<{ agent_id: string; created_at: string; users: number; agents: number }>(
    `select agent_id, conversation, created_at,
       sum(case when role = 'user' then 1 else 0 end) as users,
       sum(case when role = 'agent' then 1 else 0 end) as agents
     from messages group by agent_id, conversation, created_at
     having sum(case when role = 'user' then 1 else 0 end) <> sum(case when role = 'agent' then 1 else 0 end)`,
  );
  for (const half of halves) {
    problems.push(
      `half an exchange of ${half.agent_id} at ${half.created_at}: ${half.users} user, ${half.agents} agent`,
    );
  }

  const agents = await database.query<{
    id: string;
    account_id: string;
    status: string;
    name: string;
    profile: string;
  }>('select id, account_id, status, name, profile from agents');
  const items = await database.query<{ agent_id: string; position: number; title: string | null; content: string }>(
    'select agent_id, position, title, content from knowledge_items order by agent_id, position',
  );
  const indexed = new Map<string, string[]>();
  for (const item of items) {
    const list = indexed.get(item.agent_id) ?? [];
    list.push(item.title === null ? item.content : `${item.title}\u0000${item.content}`);
    indexed.set(item.agent_id, list);
  }
  for (const agent of agents) {
    const knowledge = (JSON.parse(agent.profile) as { knowledge: KnowledgeItem[] }).knowledge.map((item) =>
      typeof item === 'string' ? item : item.title === undefined ? item.content : `${item.title}\u0000${item.content}`,
    );
    if (JSON.stringify(knowledge) !== JSON.stringify(indexed.get(agent.id) ?? [])) {
      problems.push(`agent ${agent.id}: knowledge index does not hold its knowledge`);
    }
    indexed.delete(agent.id);
  }
  for (const agentId of indexed.keys()) problems.push(`knowledge index rows of ${agentId}, which does not exist`);

  const counted = new Map<string, number>();
  for (const agent of agents) {
    const key = `${agent.account_id}/${agent.status}`;
    counted.set(key, (counted.get(key) ?? 0) + 1);
  }
  for (const row of await database.query<{ account_id: string; status: string; agent_count: number | string }>(
    'select account_id, status, agent_count from agent_counts',
  )) {
    const key = `${row.account_id}/${row.status}`;
    if (Number(row.agent_count) !== (counted.get(key) ?? 0)) {
      problems.push(`agent count ${key} is ${row.agent_count}, there are ${counted.get(key) ?? 0}`);
    }
    counted.delete(key);
  }
  for (const [key, count] of counted) problems.push(`agent count ${key} is missing, there are ${count}`);

  const names = new Map<string, number>();
  for (const agent of agents) names.set(agent.name, (names.get(agent.name) ?? 0) + 1);
  for (const [name, count] of names) if (count > 1) problems.push(`${count} agents named ${name} (one create each)`);

  for (const record of await database.query<{ idempotency_key: string; state: string; response_body: string | null }>(
    'select idempotency_key, state, response_body from idempotency_keys',
  )) {
    // A claim whose request died with the process stays until it is taken over (after a minute) or expires.
    if (record.state === 'in_progress') {
      if (record.response_body !== null) problems.push(`idempotency ${record.idempotency_key}: a claim with a body`);
      continue;
    }
    const body = record.response_body === null ? null : (JSON.parse(record.response_body) as { id?: string });
    if (body?.id === undefined || !body.id.startsWith('agt_')) {
      problems.push(`idempotency ${record.idempotency_key}: completed without an agent in its response`);
    }
  }
  return problems;
}
