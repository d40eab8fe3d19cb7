import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { MessageRow } from './messages.js';
import { unfinishedRunStatuses, type RunEventBatch, type RunFinish } from './runs.js';
import { subscriberPattern } from './webhooks.js';

/** What a completed reply writes when it ends: its turns, its run's end with its last events. */
export interface CompletedReplyWrite {
  agentId: string;
  /** The exchange's turns, stored only if the agent still exists; none when the reply belongs to no conversation. */
  turns: MessageRow[];
  run: { runId: string; finish: RunFinish; events: RunEventBatch | null };
  /**
   * The webhook event the reply records: when the account has a webhook
   * subscribed to it, the statement writes nothing (its deliveries take the
   * outbox's transaction) and says so. Null when no event is recorded.
   */
  event: { accountId: string; type: string } | null;
}

export type CompletedReplyResult =
  | { written: true; stored: boolean; ended: boolean }
  /** The account has subscribers to the event: nothing was written. */
  | { written: false };

const turnColumns = [
  ['id', 'text'],
  ['agent_id', 'text'],
  ['conversation', 'text'],
  ['user_id', 'text'],
  ['room_id', 'text'],
  ['role', 'text'],
  ['text', 'text'],
  ['finish_reason', 'text'],
  ['usage', 'text'],
  ['model', 'text'],
  ['latency_ms', 'integer'],
  ['tool', 'text'],
  ['attachments', 'text'],
  ['created_at', 'text'],
] as const satisfies ReadonlyArray<readonly [keyof MessageRow, string]>;

/*
 * One statement, one round trip and one commit: the writes a completed reply's
 * transaction makes otherwise (BEGIN, the agent's key-share lock, the turns,
 * the outbox's subscriber read, the run's end, its events, COMMIT), as
 * data-modifying common table expressions, which all see one snapshot and
 * commit together. The agent's row is key-share locked as in
 * `MessageRepository.insertForExistingAgent`: a delete of the agent either
 * came first (no turns; its runs are gone, so the end changes nothing) or
 * waits for this commit and removes them with it.
 */
const offset = 4;
const runOffset = offset + turnColumns.length;
const statementText = `with agent as materialized (
  select id from agents where id = $1 for key share
), subscribed as materialized (
  select 1 from webhooks where $2::boolean and account_id = $3 and enabled = 1 and events like $4 limit 1
), turns as (
  insert into messages (${turnColumns.map(([column]) => column).join(', ')})
  select * from unnest(${turnColumns.map(([, type], index) => `$${offset + 1 + index}::${type}[]`).join(', ')})
  where exists (select from agent) and not exists (select from subscribed)
  returning 1
), ended as (
  update runs set status = $${runOffset + 1}, finish_reason = $${runOffset + 2}, usage = $${runOffset + 3},
    result = $${runOffset + 4}, error = $${runOffset + 5}, event_count = $${runOffset + 6}::integer,
    finished_at = $${runOffset + 7}
  where id = $${runOffset + 8} and status in (${unfinishedRunStatuses.map((status) => `'${status}'`).join(', ')})
    and not exists (select from subscribed)
  returning id
), events as (
  insert into run_events (run_id, first_seq, last_seq, events, created_at)
  select id, $${runOffset + 9}::integer, $${runOffset + 10}::integer, $${runOffset + 11}::text, $${runOffset + 7}::text
  from ended where $${runOffset + 9}::integer is not null
)
select exists (select from subscribed) as subscribed, exists (select from agent) as agent,
  exists (select from ended) as ended`;

/**
 * The end of a completed reply in one statement (PostgreSQL only: SQLite has
 * no data-modifying common table expressions, and its statements are function
 * calls, not round trips). The turns are passed as one array per column, so
 * the SQL text is the same whatever their number.
 */
export class CompletedReplyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async write(write: CompletedReplyWrite): Promise<CompletedReplyResult> {
    const { turns, run, event } = write;
    const parameters: unknown[] = [
      write.agentId,
      event !== null,
      event?.accountId ?? null,
      event ? subscriberPattern(event.type) : null,
      ...turnColumns.map(([column]) => turns.map((turn) => turn[column] ?? null)),
      run.finish.status,
      run.finish.finishReason,
      run.finish.usage,
      run.finish.result,
      run.finish.error,
      run.finish.eventCount,
      run.finish.finishedAt,
      run.runId,
      run.events?.firstSeq ?? null,
      run.events?.lastSeq ?? null,
      run.events?.events ?? null,
    ];
    const result = await this.db.executeQuery<{ subscribed: boolean; agent: boolean; ended: boolean }>(
      CompiledQuery.raw(statementText, parameters),
    );
    const row = result.rows[0] as { subscribed: boolean; agent: boolean; ended: boolean };
    if (row.subscribed) return { written: false };
    return { written: true, stored: row.agent && turns.length > 0, ended: row.ended };
  }
}
