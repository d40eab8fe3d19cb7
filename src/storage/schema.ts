import type { Generated, Kysely, Transaction } from 'kysely';

/**
 * Row shapes as both dialects store them. Times are RFC 3339 UTC strings with
 * milliseconds (fixed width, so text order is time order), booleans are 0/1
 * integers and JSON documents are text: the same values on SQLite and PostgreSQL.
 * Conversion to API shapes happens in the repositories only.
 */
/** One-time facts about this deployment, e.g. that the first account was created. */
export interface ServiceStateTable {
  name: string;
  value: string;
}

export interface AccountsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string | null;
  prefix: string;
  key_hash: string;
  /** Space-separated scope names. */
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  /** Minute-accurate at best: recorded at most once a minute per key and instance. */
  last_used_at: string | null;
}

export interface AgentsTable {
  id: string;
  account_id: string;
  name: string;
  /** Case-folded name: the key for `sortBy=name`. */
  sort_name: string;
  status: string;
  status_reason: string | null;
  deletion_protection: number;
  /** JSON of everything else the agent holds, secrets sealed. */
  profile: string;
  /**
   * The configuration version (1, 2, …; agent_versions, migration 0029): incremented by every change of
   * configuration, not by a status change. With the status, it guards read-modify-write against lost updates.
   */
  version: number;
  created_at: string;
  updated_at: string;
}

/** Agents per account and status, maintained with every write so `total` never needs a count. */
export interface AgentCountsTable {
  account_id: string;
  status: string;
  agent_count: number;
}

export interface IdempotencyKeysTable {
  account_id: string;
  idempotency_key: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface MessagesTable {
  id: string;
  agent_id: string;
  /** `user:<userId>` for a private conversation, `room:<roomId>` for a shared one. */
  conversation: string;
  user_id: string | null;
  room_id: string | null;
  role: 'user' | 'agent' | 'tool';
  text: string;
  finish_reason: string | null;
  /** JSON: { inputTokens, outputTokens, totalTokens } on agent turns. */
  usage: string | null;
  /** JSON: { provider, name } on agent turns. */
  model: string | null;
  latency_ms: number | null;
  /** JSON: the call and its result, on tool turns. */
  tool: string | null;
  /** JSON: the images of the turn (Attachment[]: those sent with a message, those an answer produced), or null. */
  attachments?: string | null;
  created_at: string;
}

/** One knowledge item of an agent, indexed for full-text search (see migration 0002). */
export interface KnowledgeItemsTable {
  search_id: Generated<number>;
  agent_id: string;
  /** Index of the item in the agent's `knowledge` list. */
  position: number;
  title: string | null;
  content: string;
}

/**
 * One entry of an agent's trail: what changed, who changed it and in which
 * request, written in the transaction of the change itself. No foreign key to
 * `agents`: the trail outlives the agent (see the event retention).
 */
export interface AgentEventsTable {
  id: string;
  account_id: string;
  agent_id: string;
  /** `agent.created`, `agent.updated`, `agent.status_changed`, `agent.deleted`; `connector.*` later. */
  type: string;
  /** JSON: what the change was, never a secret value. */
  data: string;
  /** The API key id that made the change, or `service`. */
  actor: string;
  request_id: string | null;
  created_at: string;
}

/**
 * One version of an agent's configuration (migration 0029): immutable, numbered
 * per agent like `agents.version`; `configuration` is JSON with every secret by
 * reference (src/storage/repositories/agent-versions.ts), never its value.
 */
export interface AgentVersionsTable {
  agent_id: string;
  version: number;
  account_id: string;
  key_id: string | null;
  source: string;
  restored_from: number | null;
  /** JSON array of the top-level fields that differ from the version before. */
  fields: string;
  configuration: string;
  created_at: string;
}

/** One platform connector of one agent: its reported state and durable position (see migration 0007). */
export interface PlatformStatesTable {
  agent_id: string;
  type: string;
  state: string;
  reason: string | null;
  last_event_at: string | null;
  /** The instance running it, for connectors that run on one instance under a lease. */
  holder: string | null;
  position: string | null;
  updated_at: string;
}

/** A platform item a social connector took for answering, once per agent and type (migration 0016). */
export interface PlatformItemsTable {
  agent_id: string;
  type: string;
  item_id: string;
  claimed_at: string;
  /** The item itself (JSON) while it is taken and not answered yet (migration 0023). */
  pending: string | null;
  /** How many claims it had: 1 at the take, one more at each takeover (migration 0023). */
  attempts: number;
  /** The instance whose claim it is (migration 0030). */
  owner: string | null;
  /** Known only to the claim's owner: renewing, releasing and marking it answered need it. */
  claim_token: string | null;
  /** When the claim runs out unless renewed; past it, an unanswered item is taken over. */
  claim_expires_at: string | null;
  /** When it was answered (or given up): never answered again. */
  answered_at: string | null;
}

/** Posts a connector made on one UTC day, for its daily cap (migration 0016). */
export interface PlatformDailyPostsTable {
  agent_id: string;
  type: string;
  day: string;
  posts: number;
}

/** A webhook subscription of an account; `secret` is the signing secret sealed with the secret key. */
export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of the event types subscribed. */
  events: string;
  description: string | null;
  enabled: number;
  secret: string;
  created_at: string;
  updated_at: string;
}

/**
 * One event for one webhook: the outbox entry (written with the change) and its delivery log.
 * `state` is `pending` until it succeeds, runs out of attempts (`failed`) or its webhook is
 * disabled or deleted (`cancelled`).
 */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  /** The JSON body sent, signed as it is. */
  payload: string;
  state: string;
  attempts: number;
  /** When the next attempt is due; while claimed, when the claim lapses. */
  next_attempt_at: string;
  /** The claim of the instance delivering it now; outcomes are written only under the same claim. */
  claim_token: string | null;
  /** JSON array of the attempts: attempt, statusCode, durationMs, error, at. */
  attempt_log: string;
  created_at: string;
  updated_at: string;
}

/**
 * Per-agent metrics of one minute or one hour (see migration 0005): counters and latency
 * histogram buckets (`latency_00`…, `ttft_00`…), all summed by additive upserts.
 */
export interface AgentMetricsTable {
  account_id: string;
  /** `minute` or `hour`. */
  period: string;
  agent_id: string;
  bucket_start: string;
  [counter: string]: string | number;
}

export interface KnowledgeBasesTable {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** A document of a knowledge base, and its ingestion job while `status` is `processing`. */
export interface KnowledgeDocumentsTable {
  id: string;
  account_id: string;
  knowledge_base_id: string;
  title: string;
  content_type: string;
  /** JSON: where the document came from ({ kind: text | url | upload, url?, filename? }). */
  source: string;
  /** SHA-256 of the bytes, hex: the same bytes in the same base are one document. */
  content_hash: string;
  size_bytes: number;
  status: 'processing' | 'ready' | 'failed';
  status_reason: string | null;
  chunk_count: number;
  /** Ingestion attempts begun (a claim counts as one). */
  attempts: number;
  /** The instance working on it and until when; an expired lease may be taken by another instance. */
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeDocumentBodiesTable {
  document_id: string;
  body: Uint8Array;
}

/** One chunk of a document, indexed for full text (and, with embeddings, in the vector index by `search_id`). */
export interface KnowledgeChunksTable {
  search_id: Generated<number>;
  id: string;
  knowledge_base_id: string;
  document_id: string;
  position: number;
  /** The document's title, cited in prompts. */
  title: string;
  heading: string | null;
  content: string;
  token_count: number;
}

export interface AgentKnowledgeBasesTable {
  agent_id: string;
  knowledge_base_id: string;
  account_id: string;
}

/** The long-term memory of one stored conversation (see migration 0009). */
export interface MemoryConversationsTable {
  agent_id: string;
  conversation: string;
  summary: string;
  /** The newest turn folded into `summary`; null before the first fold. */
  summarized_through: string | null;
  /** The newest user turn facts were extracted from; null before the first extraction. */
  facts_through: string | null;
  /** Bumped by every write, which checks it: compare-and-set between instances. */
  version: number;
  updated_at: string;
}

/** A fact about one user, known to one agent; one per subject (`name`, `location`, …). */
export interface MemoryFactsTable {
  id: string;
  agent_id: string;
  user_id: string;
  subject: string;
  statement: string;
  /** The turn the fact came from; null when its owner wrote it through the API. */
  source_message_id: string | null;
  created_at: string;
  updated_at: string;
}

/** One run: a piece of an agent's work, whoever started it (migration 0011). */
export interface RunsTable {
  id: string;
  account_id: string;
  agent_id: string;
  trigger: string;
  task_id: string | null;
  due_at: string | null;
  status: string;
  background: number;
  user_id: string | null;
  room_id: string | null;
  input: string;
  message_id: string | null;
  finish_reason: string | null;
  /** JSON: { inputTokens, outputTokens, totalTokens }. */
  usage: string | null;
  /** JSON: the reply (MessageReply) once the run ended with one. */
  result: string | null;
  /** JSON: the problem a failed or cancelled run ended with. */
  error: string | null;
  /** Events recorded: the sequence number of the last one. */
  event_count: number;
  /** The instance producing the run; its heartbeat says whether it still does. */
  instance_id: string | null;
  cancel_requested_at: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** For `approval` runs: the decision that resumed the reply (migration 0013). */
  approval_id: string | null;
  /**
   * For `mcp` runs: the call they answer, as src/services/mcp/mcp-calls.ts
   * names it, so a cancellation on any instance finds its run (migration 0022).
   */
  call_key: string | null;
  /** JSON: what the run was asked beyond its text ({ context }), for a takeover before its first step (0028). */
  request: string | null;
  /** How many times another instance took the run over (migration 0028). */
  takeovers: Generated<number>;
  /** The agent's configuration version that produced the run, when known (migration 0028). */
  agent_version: number | null;
}

/**
 * A run's journal (migration 0028): one row per step as it completes, in
 * order; `data` is JSON (src/services/runs/run-journal.ts says what each kind holds).
 */
export interface RunStepsTable {
  run_id: string;
  seq: number;
  kind: string;
  data: string;
  created_at: string;
}

/** Consecutive events of a run, `first_seq`..`last_seq`, as a JSON array of { event, data }. */
export interface RunEventsTable {
  run_id: string;
  first_seq: number;
  last_seq: number;
  events: string;
  created_at: string;
}

/** The last heartbeat of each instance that produces runs. */
export interface RunInstancesTable {
  instance_id: string;
  seen_at: string;
}

/** One scheduled task of an agent (migration 0012). */
/** See migration 0014: a day's transfers of one agent, chain and asset, in base units as decimal text. */
export interface EvmTransferTotalsTable {
  agent_id: string;
  chain_id: string;
  asset: string;
  day: string;
  total: string;
  updated_at: string;
}

/** Spend of an agent (`subject` its id) or an account (`account`) in one UTC period (migration 0025). */
export interface SpendTotalsTable {
  account_id: string;
  subject: string;
  period: string;
  spent_tokens: string;
  spent_micro_usd: string;
  reserved_tokens: string;
  reserved_micro_usd: string;
  exceeded_at: string | null;
  updated_at: string;
}

/** An account's spend limits, as JSON (migration 0025). */
export interface AccountSpendLimitsTable {
  account_id: string;
  limits: string;
  updated_at: string;
}

export interface TasksTable {
  id: string;
  account_id: string;
  agent_id: string;
  name: string;
  instructions: string;
  /** JSON: { cron, timezone } | { everySeconds } | { at }. */
  schedule: string;
  /** JSON: { type: 'none' } | { type: 'platform', platform, target } | { type: 'webhook' }. */
  output: string;
  enabled: number;
  paused_reason: string | null;
  /** The next due time; null while disabled, or once a one-off task has been claimed. What the scheduler claims by. */
  next_due_at: string | null;
  last_run_id: string | null;
  last_run_at: string | null;
  last_run_status: string | null;
  last_error: string | null;
  consecutive_failures: number;
  created_at: string;
  updated_at: string;
}

/**
 * A run whose reply paused for approvals (migration 0013): what the reply had
 * reached, so that any instance can go on with it once every approval of the
 * run is decided. `decisions` counts the decisions taken: each decision
 * updates it first, which serialises the decisions of one run.
 */
export interface PausedRunsTable {
  run_id: string;
  account_id: string;
  agent_id: string;
  /** JSON: the prompt, the tool steps so far and the calls of the step that paused (see services/approvals). */
  state: string;
  decisions: number;
  resumed_run_id: string | null;
  created_at: string;
}

/** One tool call waiting for (or given) a person's decision (migration 0013). */
export interface ApprovalsTable {
  id: string;
  account_id: string;
  agent_id: string;
  run_id: string;
  tool_call_id: string;
  tool_name: string;
  /** JSON: the model's input. */
  input: string;
  /** pending | approved | denied | expired */
  status: string;
  reason: string | null;
  /** The API key that decided (absent for expiry). */
  decided_by: string | null;
  user_id: string | null;
  room_id: string | null;
  expires_at: string;
  decided_at: string | null;
  resumed_run_id: string | null;
  created_at: string;
}

/** One stored file (migration 0015): an image sent with a message or made by a tool, owned by an account and agent. */
export interface FilesTable {
  id: string;
  account_id: string;
  agent_id: string;
  /** Checked from the bytes, never taken from the sender: image/png, image/jpeg, image/webp or image/gif. */
  media_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
  /** Where it came from: `message` (sent with one) or `tool` (made by one). */
  origin: string;
  /**
   * The bytes, or none (zero bytes) when they are a file in the data folder
   * (SQLite: src/files/folder-file-store.ts). An image is never empty, so
   * zero bytes always mean the folder.
   */
  body: Uint8Array;
  created_at: string;
}

/** An account's eval dataset: its cases as JSON (migration 0031, docs/evals.md). */
export interface EvalDatasetsTable {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  /** JSON array of the cases. */
  cases: string;
  case_count: number;
  created_at: string;
  updated_at: string;
}

/** An eval run of an agent: a copy of its dataset's cases, and who runs it (`instance_id` + the runs' heartbeat). */
export interface EvalsTable {
  id: string;
  account_id: string;
  agent_id: string;
  dataset_id: string;
  dataset_name: string;
  cases: string;
  case_count: number;
  /** JSON array of version numbers (one or two). */
  versions: string;
  /** JSON `{provider, model}` of the rubric scorers' judge. */
  judge: string;
  concurrency: number;
  status: string;
  instance_id: string | null;
  key_id: string;
  /** JSON problem of a failed eval. */
  error: string | null;
  takeovers: number;
  cancel_requested_at: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One case answered by one version in an eval. */
export interface EvalResultsTable {
  eval_id: string;
  case_id: string;
  version: number;
  position: number;
  status: string;
  /** 0/1: every scorer passed. */
  passed: number;
  /** JSON array of `{type, score, passed}`: what totals and comparisons read, without the replies. */
  scores: string;
  /** JSON of the whole result (replies, tool calls, usage, reasons). */
  detail: string;
  created_at: string;
}

export interface Database {
  service_state: ServiceStateTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  agents: AgentsTable;
  agent_counts: AgentCountsTable;
  idempotency_keys: IdempotencyKeysTable;
  messages: MessagesTable;
  knowledge_items: KnowledgeItemsTable;
  agent_events: AgentEventsTable;
  agent_versions: AgentVersionsTable;
  platform_states: PlatformStatesTable;
  platform_items: PlatformItemsTable;
  platform_daily_posts: PlatformDailyPostsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  agent_metrics: AgentMetricsTable;
  knowledge_bases: KnowledgeBasesTable;
  knowledge_documents: KnowledgeDocumentsTable;
  knowledge_document_bodies: KnowledgeDocumentBodiesTable;
  knowledge_chunks: KnowledgeChunksTable;
  agent_knowledge_bases: AgentKnowledgeBasesTable;
  memory_conversations: MemoryConversationsTable;
  memory_facts: MemoryFactsTable;
  runs: RunsTable;
  run_events: RunEventsTable;
  run_steps: RunStepsTable;
  run_instances: RunInstancesTable;
  tasks: TasksTable;
  evm_transfer_totals: EvmTransferTotalsTable;
  spend_totals: SpendTotalsTable;
  account_spend_limits: AccountSpendLimitsTable;
  paused_runs: PausedRunsTable;
  approvals: ApprovalsTable;
  files: FilesTable;
  eval_datasets: EvalDatasetsTable;
  evals: EvalsTable;
  eval_results: EvalResultsTable;
}

export type Executor = Kysely<Database> | Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';

/** Runs `work` in the caller's transaction, or in a new one when there is none. */
export function inTransaction<T>(
  executor: Executor,
  work: (transaction: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return executor.isTransaction ? work(executor as Transaction<Database>) : executor.transaction().execute(work);
}
