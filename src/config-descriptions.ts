/**
 * What each environment variable read by src/config.ts is for, in the words of
 * docs/configuration.md. Its name, type (range) and default are not written
 * here: `npm run docs:generate` (scripts/docs-reference.ts) reads them from the
 * calls in src/config.ts, and fails when a variable read there has no entry
 * here or an entry here names a variable no longer read. `type` and `default`
 * may be given only where the code cannot say: a free-text value's format, a
 * default that is not a literal.
 */
export interface ConfigVariableDescription {
  description: string;
  type?: string;
  default?: string;
}

export const configVariableDescriptions: Record<string, ConfigVariableDescription> = {
  PORT: {
    description:
      'HTTP port (`0`: any free port); the commands over HTTP reach `http://127.0.0.1:$PORT` unless `AGENTD_URL` is set',
  },
  HOST: {
    description: 'interface to listen on (`0.0.0.0` for all)',
  },
  AGENTD_DATA_DIR: {
    description:
      'SQLite database, its image files (`agentd.sqlite-files/`) and generated secret key: back up the folder as a whole',
  },
  DATABASE_URL: {
    type: '`postgres://…` or `sqlite:path`',
    description: 'unset: SQLite in the data dir; `postgres://…`: PostgreSQL; `sqlite:path` for another SQLite file',
  },
  AGENTD_DATABASE_POOL_SIZE: {
    description:
      'PostgreSQL connections per instance (plus 2 for the rows of running runs, which do not wait for their own WAL flush)',
  },
  REDIS_URL: {
    type: '`redis://…` or `rediss://…`',
    description: 'unset: limits kept in process; `redis://…`: limits shared by all instances',
  },
  AGENTD_REDIS_PREFIX: {
    description: 'prefix of every Redis key agentd writes',
  },
  AGENTD_CONCURRENCY_LEASE_MS: {
    description: 'with Redis: how long an in-flight slot outlives an instance that died holding it',
  },
  AGENTD_SECRET_KEY: {
    type: '64 hexadecimal characters',
    default: 'generated',
    description:
      '64 hex characters (32 bytes) that encrypt agent secrets; generated into the data dir when absent with SQLite, required with PostgreSQL',
  },
  AGENTD_BOOTSTRAP_KEY: {
    type: 'API key (`agd_` and 32 to 128 letters and digits)',
    description: 'an `agd_…` key to create on first start instead of printing a generated one',
  },
  AGENTD_RATE_LIMITS: {
    type: '`name=number,…` or `off`',
    default: 'the limits listed below',
    description:
      'per-minute limits by operation, e.g. `createAgent=100,getAgent=600,sendMessageConcurrency=20`; `off` disables all',
  },
  AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT: {
    description:
      'streamed replies one account may have open at once, over all its agents and instances; stays on with `AGENTD_RATE_LIMITS=off`',
  },
  AGENTD_DEFAULT_MODEL: {
    type: '`provider/name`',
    default: "the first enabled provider's usual small model, else `builtin/echo`",
    description: 'the model of new agents that name none',
  },
  AGENTD_MODEL_PRICES: {
    type: 'JSON object, or the path of a JSON file',
    description:
      "prices per million tokens by provider and model, inline JSON or a file's path, over the dated defaults (model prices)",
  },
  AGENTD_ALLOW_AGENT_MODEL_KEYS: {
    description: 'accept a per-agent `model.apiKey` (stored encrypted)',
  },
  AGENTD_OUTBOUND_ALLOW_PRIVATE: {
    description:
      'let calls to user-given URLs (plugins, webhooks, documents) reach loopback, private and link-local addresses; only for trusted single-user setups',
  },
  AGENTD_BODY_LIMIT_BYTES: {
    description: 'largest request body (the messages routes take more: room for 4 images as base64)',
  },
  AGENTD_MAX_IMAGE_BYTES: {
    description: 'largest image sent with a message or made by a tool ([pictures](files.md))',
  },
  AGENTD_MAX_HEADER_BYTES: {
    description: 'request line and headers together; more is 413',
  },
  AGENTD_MAX_QUERY_BYTES: {
    description: 'query string; more is 400 `validation_failed` before the key is looked up',
  },
  AGENTD_HEADERS_TIMEOUT_MS: {
    description: "time for a request's headers to arrive (slow clients are disconnected)",
  },
  AGENTD_REQUEST_TIMEOUT_MS: {
    description: "time for a whole request, body included, to arrive; not shorter than the headers'",
  },
  AGENTD_KEEP_ALIVE_TIMEOUT_MS: {
    description: 'how long an idle keep-alive connection stays open',
  },
  AGENTD_LISTEN_BACKLOG: {
    description:
      'connections the kernel queues until agentd accepts them (Linux caps it at `net.core.somaxconn`); too small, and clients arriving in a burst are reset',
  },
  AGENTD_PROVIDER_TIMEOUT_MS: {
    description: 'time a model provider has for its first token (and for any silence mid-answer)',
  },
  AGENTD_PROVIDER_RETRY_DELAY_MS: {
    description: 'pause before the first retry of a failed model call (doubled for the second)',
  },
  AGENTD_CIRCUIT_FAILURE_THRESHOLD: {
    description: "consecutive failed replies that open a provider's circuit",
  },
  AGENTD_CIRCUIT_OPEN_MS: {
    description: 'how long an open circuit answers 503 at once',
  },
  AGENTD_SSE_KEEPALIVE_MS: {
    description: "interval of `: keep-alive` comments while a streamed reply's model is silent",
  },
  AGENTD_BUILTIN_WORD_DELAY_MS: {
    description: "pause between the builtin model's words in a streamed reply (none when not streamed)",
  },
  AGENTD_SHUTDOWN_TIMEOUT_MS: {
    description: 'on SIGTERM, how long running requests and streams may finish',
  },
  AGENTD_TOOL_TIMEOUT_MS: {
    description: 'how long one tool call may run',
  },
  AGENTD_TOOL_OUTPUT_BYTES: {
    description: "bytes of a tool's output given back to the model (the rest is cut, with a marker)",
  },
  AGENTD_EVENT_RETENTION_DAYS: {
    description: "days a deleted agent's event trail stays readable before it is removed",
  },
  AGENTD_PUBLIC_BASE_URL: {
    description: "this service's URL as platforms reach it; set, Telegram uses webhooks instead of long polling",
  },
  AGENTD_TELEGRAM_API_URL: {
    description: 'the Telegram Bot API server connectors talk to',
  },
  AGENTD_SLACK_API_URL: {
    description: 'the Slack Web API base the Slack connector talks to',
  },
  AGENTD_DISCORD_API_URL: {
    description: 'the Discord REST API base (the gateway address is the one it returns)',
  },
  AGENTD_X_API_URL: {
    description: 'the X API base (before `/2/…`) the X connector talks to',
  },
  AGENTD_BLUESKY_SERVICE_URL: {
    description: 'the PDS of Bluesky entries that name none in `settings.serviceUrl`',
  },
  AGENTD_PLATFORM_LEASE_MS: {
    description: "time to live of a polling connector's lease; another instance takes over within about 1.2× this",
  },
  AGENTD_PLATFORM_CHANGE_POLL_MS: {
    description: 'how often each instance looks for agents changed on any instance (connectors stop within about this)',
  },
  AGENTD_PLATFORM_RECONCILE_MS: {
    description: 'how often each instance compares every agent with platforms against what it runs',
  },
  AGENTD_RUN_EVENT_RETENTION_HOURS: {
    description: "hours a [run](runs.md)'s events stay readable after they were recorded",
  },
  AGENTD_RUN_FLUSH_MS: {
    description: 'how often new events of running runs are written for readers on other instances',
  },
  AGENTD_RUN_POLL_MS: {
    description: 'how often a reader of a run produced by another instance looks for new events',
  },
  AGENTD_RUN_HEARTBEAT_MS: {
    description: 'how often an instance reports alive and looks for cancel requests of its runs',
  },
  AGENTD_RUN_STALE_MS: {
    description: 'a running run whose instance has not reported for this long is ended as failed',
  },
  AGENTD_INSTANCE_ID: {
    type: '1 to 64 letters, digits, `.`, `-`, `_`',
    default: 'random',
    description: "this instance's name in platform reports (letters, digits, `.`, `-`, `_`)",
  },
  AGENTD_WEBHOOKS: {
    description: '`off`: no webhook outbox rows are written and no dispatcher runs',
  },
  AGENTD_WEBHOOK_DELIVERY: {
    description:
      '`off`: this instance writes webhook deliveries to the outbox but sends none; instances with it `on` deliver them (dedicated delivery workers)',
  },
  AGENTD_WEBHOOK_TIMEOUT_MS: {
    description: 'time a webhook receiver has to answer one attempt',
  },
  AGENTD_WEBHOOK_RETRY_BASE_MS: {
    description: 'unit of the webhook retry schedule (5 s gives 11 attempts over about 24 h)',
  },
  AGENTD_WEBHOOK_POLL_MS: {
    description: 'how often an idle dispatcher looks for deliveries other instances wrote or that fell due',
  },
  AGENTD_TASKS: {
    description: '`off`: this instance claims no due tasks ([tasks](tasks.md))',
  },
  AGENTD_TASK_MIN_INTERVAL_SECONDS: {
    description: 'the shortest `everySeconds` of a task',
  },
  AGENTD_TASK_TICK_MS: {
    description: 'how often an instance looks for due tasks',
  },
  AGENTD_TASK_CONCURRENCY: {
    description: 'task runs one instance produces at once',
  },
  AGENTD_WEBHOOK_RETENTION_DAYS: {
    description: 'days finished webhook deliveries stay in the log',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    description: 'OTLP/HTTP endpoint for traces; unset: no tracing, nothing loaded',
  },
  OTEL_SERVICE_NAME: {
    description: 'service name on the traces',
  },
  OTEL_BSP_SCHEDULE_DELAY: {
    description: 'milliseconds spans are batched before they are sent',
  },
  AGENTD_AGENT_METRICS: {
    description: '`off` stops counting per-agent metrics',
  },
  AGENTD_METRICS_FLUSH_MS: {
    description: 'how often each instance writes the per-agent metrics it gathered',
  },
  AGENTD_METRICS_RETENTION_DAYS: {
    description: 'days per-agent metrics are kept',
  },
  AGENTD_EMBEDDINGS_PROVIDER: {
    type: '`openai`, `openai-compatible`, `ollama` or `none`',
    description:
      '`openai`, `openai-compatible` or `ollama`: the embedding model of knowledge bases and of memory recall; unset or `none`: full-text retrieval and recall only',
  },
  AGENTD_EMBEDDINGS_MODEL: {
    default: '—',
    description:
      "the embedding model's name (required with a provider), e.g. `text-embedding-3-small`, `nomic-embed-text`",
  },
  AGENTD_EMBEDDINGS_BASE_URL: {
    default: "the provider's",
    description: 'endpoint; defaults to `OPENAI_BASE_URL`, `AGENTD_OPENAI_COMPATIBLE_BASE_URL` or `OLLAMA_BASE_URL`',
  },
  AGENTD_EMBEDDINGS_API_KEY: {
    default: "the provider's",
    description: 'key; defaults to `OPENAI_API_KEY` or `AGENTD_OPENAI_COMPATIBLE_API_KEY`',
  },
  AGENTD_EMBEDDINGS_DIMENSIONS: {
    description: "length of the model's vectors (the vector index is built for it; pgvector's HNSW takes up to 2,000)",
  },
  AGENTD_EMBEDDINGS_BATCH_SIZE: {
    description: 'texts per embeddings request',
  },
  AGENTD_EMBEDDINGS_CONCURRENCY: {
    description: 'embeddings requests in flight at once per instance',
  },
  AGENTD_KNOWLEDGE_MAX_DOCUMENT_BYTES: {
    description: 'largest knowledge-base document (upload, JSON content or fetched URL)',
  },
  AGENTD_KNOWLEDGE_LEASE_MS: {
    description: 'how long a claimed ingestion job stays claimed without renewal before another instance may take it',
  },
  AGENTD_KNOWLEDGE_POLL_MS: {
    description: 'pause between looks for waiting documents (a new document wakes its instance at once)',
  },
  LOG_LEVEL: {
    type: 'log level',
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  },
  AGENTD_URL: {
    default: '`http://127.0.0.1:$PORT`',
    description: 'where `agentd agents …`, `agentd tasks …` and `agentd chat` reach a running agentd',
  },
  AGENTD_API_KEY: {
    type: 'API key (`agd_` and 32 to 128 letters and digits)',
    description: 'the API key `agentd agents …`, `agentd tasks …` and `agentd chat` send (required by them)',
  },
  OPENAI_API_KEY: {
    description: 'enables the `openai` provider (OpenAI Chat Completions)',
  },
  OPENAI_BASE_URL: {
    default: '`https://api.openai.com/v1`',
    description: 'another endpoint for the `openai` provider',
  },
  ANTHROPIC_API_KEY: {
    description: 'enables the `anthropic` provider (Anthropic Messages API)',
  },
  ANTHROPIC_BASE_URL: {
    description: 'another endpoint for the `anthropic` provider',
  },
  AGENTD_OPENAI_COMPATIBLE_BASE_URL: {
    description:
      'enables the `openai-compatible` provider: any Chat Completions server (vLLM, llama.cpp, LM Studio, OpenRouter, …), used as given (include the `/v1` it expects)',
  },
  AGENTD_OPENAI_COMPATIBLE_API_KEY: {
    description: 'the key the `openai-compatible` provider sends, when its server needs one',
  },
  OLLAMA_BASE_URL: {
    description: 'enables the `ollama` provider, e.g. `http://127.0.0.1:11434`',
  },
};
