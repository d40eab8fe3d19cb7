// Generated from GET /v1/openapi.json by `npm run client:types` (scripts/generate-client-types.ts).
// Do not edit: change the route schemas in src/ and regenerate.

export interface paths {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness: the process is up */
    get: operations['health'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Prometheus metrics (text exposition format) */
    get: operations['metrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness: the database (and Redis, when configured) answer
     * @description 200 while the instance can serve. A missing Redis is reported as `degraded` with 200, because the instance then keeps serving with per-instance limits; a missing database is 503.
     */
    get: operations['ready'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/a2a': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The account's A2A directory
     * @description Every agent of the account as an A2A agent (the newest 1,000): its id, the address of its card and the card itself, as `GET /v1/a2a/{agentId}/.well-known/agent-card.json` answers it.
     */
    get: operations['listAgentCards'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/a2a/{agentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Talk to an agent over A2A (JSON-RPC)
     * @description The agent’s A2A endpoint, named by its agent card. A message (`SendMessage`, or `message/send` for A2A 0.3 clients) is a message to the agent, and its task is the run it starts (trigger `a2a`): the task id is the run id, so `GetTask` and `CancelTask` work on any instance. `contextId` is the conversation (the room): messages with the same one continue it. `SendStreamingMessage` (`message/stream`) answers with an event stream: the task, artifact updates as the reply’s text comes, status updates for tool calls and the end. Only text parts are read. Needs `messages:send` to send or cancel, `agents:read` to get a task, checked before the agent is looked up: a key without the method’s scope gets the same `insufficient_scope` JSON-RPC error whether the agent exists or not. The same per-minute limits and in-flight slots as the messages route. JSON-RPC errors are answered with status 200, as A2A asks. See docs/a2a.md.
     */
    post: operations['a2aJsonRpc'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/a2a/{agentId}/.well-known/agent-card.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An agent's A2A agent card
     * @description The agent as an A2A 1.0 agent card (ProtoJSON): its name, its bio as description, a skill for conversation, each enabled plugin and each line of expertise, the JSON-RPC interface at `/v1/a2a/{agentId}` (protocol versions 1.0 and 0.3), streaming, and the Bearer scheme of agentd keys. Cards are private to the account like the agents: the request needs a key with `agents:read`. The address in the card is AGENTD_PUBLIC_BASE_URL when set, else the one the request was sent to.
     */
    get: operations['getAgentCard'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/account/limits': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the account's spend limits
     * @description The account's spend limits: tokens or US dollars per UTC day and month, over all its agents, besides each agent's own `limits.spend`. A message or task is refused with 429 `budget_exceeded` once a total reaches a limit; a reply that began always finishes and is counted. Spend is counted while a limit applies. Scope: `keys:manage`. See docs/spend-limits.md.
     */
    get: operations['getAccountLimits'];
    /**
     * Replace the account's spend limits
     * @description The account's spend limits: tokens or US dollars per UTC day and month, over all its agents, besides each agent's own `limits.spend`. A message or task is refused with 429 `budget_exceeded` once a total reaches a limit; a reply that began always finishes and is counted. Spend is counted while a limit applies. Scope: `keys:manage`. See docs/spend-limits.md. A limit left out (or null) is removed.
     */
    put: operations['putAccountLimits'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List agents
     * @description Pages of the account's agents. Ties in the sort key are broken by id in the same direction, so pages never repeat or skip an agent while nothing changes. Follow `nextCursor` (constant time per page at any depth) or ask for `page` numbers. Unknown query parameters are rejected. Scope: `agents:read`.
     */
    get: operations['listAgents'];
    put?: never;
    /**
     * Create an agent
     * @description Only `name` is required. With an `Idempotency-Key` header, the same key and body within 24 hours replay the first response (marked `Idempotent-Replayed: true`); the same key with another body is 422; while the first request runs, 409. Scope: `agents:write`.
     */
    post: operations['createAgent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an agent
     * @description Secrets are returned masked. Scope: `agents:read`.
     */
    get: operations['getAgent'];
    put?: never;
    post?: never;
    /**
     * Delete an agent for good
     * @description Removes the agent with its conversations, knowledge and secrets. An agent with `deletionProtection: true` answers 403 `deletion_protected`. Scope: `agents:delete`.
     */
    delete: operations['deleteAgent'];
    options?: never;
    head?: never;
    /**
     * Update an agent (JSON Merge Patch)
     * @description RFC 7396: objects merge, arrays replace, `null` resets a field to its default. Accepts `application/json` and `application/merge-patch+json`. Setting `status` (or changing `model`) of an agent in `error` clears its `statusReason`. A masked secret sent back unchanged keeps the stored secret of a plugin (platform) entry of the same name (type) whose destination is the same: the URL its secrets are sent to, or what the plugin names instead (see `secrets`). A kept secret never follows a changed destination: its mask is then refused (400 `validation_failed` at `/body/plugins/{i}/secrets/{name}`, nothing changed) and the secret must be given again in clear. A patch that changes nothing leaves `updatedAt` as it was. Scope: `agents:write`.
     */
    patch: operations['updateAgent'];
    trace?: never;
  };
  '/v1/agents/{agentId}/approvals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an agent's approvals
     * @description The tool calls that waited (or wait) for a person's decision, newest first; `status=pending` lists those to decide. An approval past its expiry is shown `expired` (the model was told). Follow `nextCursor` for older ones. Scope: `agents:read`.
     */
    get: operations['listApprovals'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/approvals/{approvalId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an approval
     * @description One tool call waiting for (or given) a decision: the tool, its input, the run that paused, and once decided the decision and `resumedRunId`, the run that goes on with the reply. Scope: `agents:read`.
     */
    get: operations['getApproval'];
    put?: never;
    /**
     * Approve or deny a tool call
     * @description `approve`: the tool runs and the model goes on; `deny`: the tool never runs and the model is told so (with `reason`, when given) and answers. A decision is taken once, on any instance: a second one, or one after the approval expired, is 409 `conflict`. Once every pending call of the paused run is decided, the reply goes on in a new run (trigger `approval`) named by `resumedRunId`: read it, and stream its events, with GET /v1/agents/{agentId}/runs/{runId}(/events). Scope: `approvals:write`.
     */
    post: operations['decideApproval'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/conversations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the conversations an agent knows
     * @description The private conversations (by `userId`) and rooms (by `roomId`) with stored turns, and the users the agent keeps facts about whose turns were forgotten, most recently active first: the ids the history, memory and forget routes take. Follow `nextCursor` for more. Counted against the listMessages limit. Scope: `agents:read`.
     */
    get: operations['listConversations'];
    put?: never;
    post?: never;
    /**
     * Forget a conversation
     * @description Deletes stored turns for good: `userId` alone, the private conversation with that user; `roomId`, the room's conversation; both, that user's turns in the room and the answers to them. One of them is required. The conversation's memory summary is forgotten with it; `facts=true` also forgets the user's facts. Scope: `agents:write`.
     */
    delete: operations['forgetConversation'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/evals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an agent's evals
     * @description The agent's evals, newest first, each with its status, progress and totals per version (without the cases: GET one for them). Follow `nextCursor` for older ones. Scope: `agents:read`.
     */
    get: operations['listEvals'];
    put?: never;
    /**
     * Evaluate an agent on a dataset
     * @description Answers every case of the dataset with one version of the agent, or two to compare (default: the current one), in the background, and scores each reply. Each reply is a run (trigger `eval`) produced by the normal reply path with that version's configuration, isolated: a conversation of its own deleted once the case is answered, memory off, no message webhooks, nothing posted to platforms, and tools with side effects not run (the model reads `{"stubbed": true, "reason": "not executed in an eval"}`) unless the case allows them. Replies count against the agent's spend limits and wait for its in-flight slots. `rubric` scorers ask the judge (default: the agent's own model). Answers 202 with the eval, `queued`; follow it with GET …/evals/{evalId}; `eval.completed` is sent to webhooks when it ends. A dataset or version that does not exist, or a judge whose provider is not enabled, is 400; a version that needs a secret the agent no longer holds, or a provider this server does not enable, is 409. Scope: `messages:send`.
     */
    post: operations['createEval'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/evals/{evalId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an eval with its results
     * @description The eval: status, progress, totals per version and per scorer type, and a page of its cases (those with a result so far): per case and version the replies, tool calls (`stubbed` ones were not run), finish reason, latency, tokens, cost, the runs, and each scorer's score (0–1), whether it passed and why. Cases whose outcome differs between the two versions come first (`differs`), then dataset order; `differsOnly=true` lists only those. Follow `casesPagination.nextCursor` for more. Scope: `agents:read`.
     */
    get: operations['getEval'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/evals/{evalId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel an eval
     * @description Stops a queued or running eval, wherever it runs: it is `cancelled` at once, its replies in progress stop (on another instance at its next heartbeat), and the results recorded so far stay. An eval that has ended is 409 `conflict`. No body. Scope: `messages:send`.
     */
    post: operations['cancelEval'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read an agent's event trail
     * @description The lifecycle and audit trail of the agent, newest first: created, updated (which fields, never secret values), status changes with their reason and who made them, deleted. The trail of a deleted agent stays readable for AGENTD_EVENT_RETENTION_DAYS (30) after the deletion. Follow `nextCursor` for older events. Scope: `agents:read`.
     */
    get: operations['listAgentEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export an agent as an ElizaOS character file
     * @description What the character format has no field for is kept under `settings.agentd`, so that importing the file gives the same agent. Secrets are write-only: `settings.secrets` names them with empty values. Scope: `agents:read`.
     */
    get: operations['exportAgent'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/memory': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read what an agent remembers
     * @description The long-term memory of a conversation: its rolling summary (the turns that left the prompt's window), and with `userId` the facts the agent keeps about that user, each with the turn it came from. `userId` alone names the private conversation, `roomId` a room's. Counted against the getAgent limit. Scope: `agents:read`.
     */
    get: operations['getMemory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Correct what an agent remembers
     * @description Replaces (or with null clears) the conversation's summary and edits the user's facts, all or nothing; the next prompt carries the result. Fact edits need `userId`. Answers the memory as it now is. Counted against the updateAgent limit. Scope: `agents:write`.
     */
    patch: operations['updateMemory'];
    trace?: never;
  };
  '/v1/agents/{agentId}/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read conversation history
     * @description Stored turns, newest first. `userId` alone: the private conversation with that user; `roomId`: the room's conversation; both: that user's turns in the room and the agent's answers to them; neither: every turn of the agent. Follow `nextCursor` for older turns. Scope: `agents:read`.
     */
    get: operations['listMessages'];
    put?: never;
    /**
     * Send a message and get the agent's reply
     * @description The agent answers in character, with the knowledge relevant to the message, the `context` given, and the history of the conversation named by `userId` (private) or `roomId` (shared). Without either, nothing is stored.
     *
     *     With `stream: true` the answer is `text/event-stream`: `message.started`, then `message.delta` events whose texts joined are the reply, then `message.completed` (the same object as the JSON reply) — or `message.failed` with a problem if the model fails mid-answer. When the agent has plugins, the model may call their tools: each call is a `tool.called` event `{id, toolCallId, name, input}` and its result a `tool.completed` event `{id, toolCallId, name, output | error, durationMs}`, between deltas; the JSON reply lists them in `toolCalls`. `: keep-alive` comments come while the model is silent. If the client disconnects, the model call is aborted and what was said is stored with `finishReason: "aborted"`. Anything that goes wrong before the reply begins is an ordinary problem response.
     *
     *     At most 60 messages per minute and 10 in flight per agent (a stream counts until it ends), and at most 100 streamed replies open at once per account over all its agents (`AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT`): over either, 429 `concurrency_limited` with Retry-After. An agent that is `inactive` or in `error` answers 503 `agent_unavailable`; a provider that times out, fails or whose circuit is open, 503 `provider_unavailable` with Retry-After. Scope: `messages:send`.
     *
     *     Images may be sent as raw bytes instead of base64: a `multipart/form-data` body with the fields above as form fields (`text`, `userId`, `roomId`, `stream` and `background` as `true`/`false`, `context` as JSON) and each image a file part named `attachments` (`curl -F text=… -F attachments=@photo.png`). The same checks and errors apply, with the same pointers (`/body/attachments/0`).
     */
    post: operations['sendMessage'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read an agent's metrics
     * @description Messages, failures by type, tool calls, tokens, latency and time-to-first-token percentiles, and messages refused by the rate and concurrency limits, in buckets of `interval` (UTC) from `from` (rounded down to the interval) until `to`: the buckets that start before `to`, whole (minute buckets are read from minute rollups, hour and day buckets from hour rollups), with totals over them; at most 1500 buckets. Buckets without traffic are present with zeros; percentiles are null without samples. Defaults: the last 24 hours by hour. Instances write what they gathered every AGENTD_METRICS_FLUSH_MS (5 s), so the newest seconds may be missing; metrics are kept AGENTD_METRICS_RETENTION_DAYS (30). Percentiles come from fixed histogram buckets (see `latencyMs`). Scope: `agents:read`.
     */
    get: operations['getAgentMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/platforms': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Report the state of an agent's platform connectors
     * @description One entry per `platforms[]` entry of the agent, in its order: `running`, `stopped`, `error` (with `reason`) or `unsupported`, when it last saw an event, and which instance runs it when it runs on one at a time. Every instance answers the same (the state is kept in the database). Scope: `agents:read`.
     */
    get: operations['listAgentPlatforms'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/platforms/{type}/posts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Post a text now with one of the agent’s platforms
     * @description Posts `text` to `target` with the agent’s connector of `type` (telegram, slack, discord, x, bluesky), as a task’s output is posted; answers `200` once the platform took it. The agent must be `active` and the entry enabled (`409` otherwise, and when the platform refuses the post, e.g. X’s daily cap of the entry, with its reason); the platform’s rate limit is a `429` with `Retry-After` until its reset. Posts are counted in `agentd_platform_posts_total` and recorded in the trail (`connector.posted`). Scope: `agents:write`.
     */
    post: operations['postPlatformText'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an agent's runs
     * @description Every reply is a run, whoever started it: a message (`trigger: message`), a task (`task`), a platform (`platform`) or the OpenAI-compatible door (`door`). Newest first; filter by `status`, `trigger` or `taskId` (`task`: its deprecated former name), and follow `nextCursor` for older runs. A reply still waiting for its model's first word is listed as `running` within 50 ms of its message. Scope: `agents:read`.
     */
    get: operations['listRuns'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/runs/{runId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a run
     * @description The run with its status, usage (in `reply`) and timings; once it has ended, `reply` is the reply as POST …/messages returns it, or `error` the problem it failed with. Scope: `agents:read`.
     */
    get: operations['getRun'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/runs/{runId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a run
     * @description Stops a queued or running run: its model call and any tool are aborted, and what was said so far is kept (the reply's `finishReason` is `aborted`, the run's status `cancelled`). A run produced by this instance is answered once it has ended; one produced by another instance stops at that instance’s next heartbeat (AGENTD_RUN_HEARTBEAT_MS, 2 s): the answer then shows `cancelRequestedAt` while it is still `running`. A run that has already ended: 409 `conflict`. Scope: `messages:send`.
     */
    post: operations['cancelRun'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/runs/{runId}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Stream a run's events
     * @description The run’s events as server-sent events, the same ones a streamed reply sends (`message.started`, `message.delta`, `tool.called`, `tool.completed`, then `message.completed` or `message.failed`), each with its `id` (1, 2, 3…). From the start, or after the `Last-Event-ID` header (or `after`): a client that lost its connection resumes where it was, on any instance, without a repeated event. While the run goes on the stream follows it, and ends after its last event. A run whose instance stopped is taken over by another instance (docs/runs.md, "When an instance stops"): its readers then get `run.resumed` `{runId, id, text, completedSteps, takeovers}`, whose `text` (the reply so far) replaces what the deltas said, then the continuation and the real end. Events stay readable for AGENTD_RUN_EVENT_RETENTION_HOURS (24) after they were recorded; later, a finished run gives its outcome as one last event. Leaving the stream does not stop the run (POST …/cancel does). Scope: `agents:read`.
     */
    get: operations['streamRunEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/runs/{runId}/steps': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a run's steps
     * @description What the run did, in order (docs/runs.md, "A run's steps"): each model step (model, finish reason, tokens in, out and cached, time to first token and to end, retries, the tool calls asked for, and the prompt's sections with their estimated tokens against `contextTokens`, the model's window), each tool call (input, output or error, duration, approval), each approval the run paused for and its decision, and, for a run that went on after decisions (trigger `approval`), where it resumed. Steps are recorded as the run goes and kept as long as its events (`AGENTD_RUN_EVENT_RETENTION_HOURS`, 24 h by default); a run whose steps are gone (or recorded before steps were) shows what its reply holds. Tool outputs are masked as in replies. Scope: `agents:read`.
     */
    get: operations['listRunSteps'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/runs/{runId}/steps/{index}/prompt': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get the prompt a model step was sent
     * @description The prompt of one model step (`index` from GET …/steps) as the provider received it: the system prompt, every message in order (history, the notes of this message — knowledge, recalled turns, context — and the user's text, then this reply's earlier tool rounds), and the tools offered; with its sections and their estimated tokens. Tool outputs in it are masked as stored; images are counted, not repeated. 404 for a step that is not a model step or whose prompt was not recorded. Scope: `agents:read` of the run's account.
     */
    get: operations['getRunStepPrompt'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an agent's tasks
     * @description The agent's tasks, newest first, with their next due time and how their last run went. Follow `nextCursor` for more. Scope: `agents:read`.
     */
    get: operations['listTasks'];
    put?: never;
    /**
     * Give an agent a task on a schedule
     * @description At each due time of `schedule` (`{ cron, timezone }`, `{ everySeconds }` or `{ at }`), the agent answers `instructions` as a background run (trigger `task`), once over every instance, and its reply goes to `output`. Tasks of an agent that is not `active` do not run. A task whose last 3 runs failed is paused. At most 100 tasks per agent. Scope: `agents:write`.
     */
    post: operations['createTask'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/tasks/{taskId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a task
     * @description The task, its next due time, and its last run: when it ended, its status, why it failed, the failures in a row and, when the service paused it, `pausedReason`. Its runs: GET /v1/agents/{agentId}/runs?taskId={taskId}. Scope: `agents:read`.
     */
    get: operations['getTask'];
    put?: never;
    post?: never;
    /**
     * Delete a task
     * @description The task has no more due times; a run in progress finishes, and its runs stay in the run list. Scope: `agents:write`.
     */
    delete: operations['deleteTask'];
    options?: never;
    head?: never;
    /**
     * Change a task
     * @description Fields sent replace the stored ones. A new `schedule` sets the next due time from now; `enabled: true` resumes a disabled or paused task (forgetting its failures); `enabled: false` stops it. Scope: `agents:write`.
     */
    patch: operations['updateTask'];
    trace?: never;
  };
  '/v1/agents/{agentId}/tasks/{taskId}/run': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run a task now
     * @description Starts a run of the task now, outside its schedule (its due times are unchanged; `dueAt` is null), produced in the background with its output like a due run; also for a disabled or paused task. Answers `202` with the queued run and its `Location`; follow it with GET …/runs/{runId} or its events. Scope: `agents:write`.
     */
    post: operations['runTask'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an agent's versions
     * @description Every configuration the agent had, newest first: each create, PATCH, character import and restore that changed its configuration is a version (a change of status alone is not). Each entry says who made it (`keyId`), how (`source`) and which top-level fields changed; GET one version for its configuration. Versions are kept for as long as the agent exists and deleted with it. Follow `nextCursor` for older versions. Scope: `agents:read`.
     */
    get: operations['listAgentVersions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/versions/{version}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get one version of an agent
     * @description The agent's configuration at that version, shaped like the agent (secrets masked; a version keeps a reference to each secret, never its value). Scope: `agents:read`.
     */
    get: operations['getAgentVersion'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/versions/{version}/diff': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Compare two versions of an agent
     * @description What changed from version `from` (default: the version before) to this one, as a JSON Patch (RFC 6902) over the two configurations, secrets masked: `add`, `remove` and `replace` operations at JSON Pointers. To compare a version with the agent as it is now, ask for the agent's `version` with `from` set to it. Scope: `agents:read`.
     */
    get: operations['diffAgentVersions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/{agentId}/versions/{version}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Restore a version of an agent
     * @description Makes that version's configuration the agent's again, as a new version (`source` `restore`), and answers the agent. The status stays as it is. Secrets come back only from those the agent still holds: a version that needs a secret removed or replaced since, a model provider this server no longer enables, or a knowledge base deleted since, is refused with 409 `conflict` saying which, and nothing changes. Restoring a version equal to the present configuration changes nothing. No body. Scope: `agents:write`.
     */
    post: operations['restoreAgentVersion'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/agents/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an agent from an ElizaOS character file
     * @description Maps every field it can (name, bio, lore, system, adjectives, style, topics, knowledge texts, plugins, clients, modelProvider, settings.model, secrets) and reports the others with a reason; secrets are named in the report, never shown. The agent is created under the rules of `createAgent`, with its rate limit and its `Idempotency-Key` (keys are shared with `createAgent`). Scope: `agents:write`.
     */
    post: operations['importAgent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the account's API keys
     * @description Oldest first, with when each was last used (to the minute); never the keys themselves. Revoked keys are listed only with `include=revoked`. Scope: `keys:manage`.
     */
    get: operations['listApiKeys'];
    put?: never;
    /**
     * Create an API key
     * @description The plaintext `key` is in this response only; store it now. Scope: `keys:manage`.
     */
    post: operations['createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an API key
     * @description Takes effect on the next request, on every instance. A key may revoke itself. An unknown or already revoked key is 404. Scope: `keys:manage`.
     */
    delete: operations['revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/approvals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the approvals of all the account's agents
     * @description The tool calls of every agent of the account that waited (or wait) for a person's decision, newest first, in the same shape and pages as GET /v1/agents/{agentId}/approvals (each names its `agentId`); `status=pending` lists everything there is to decide. Decide one with POST /v1/agents/{agentId}/approvals/{approvalId}. Scope: `agents:read`.
     */
    get: operations['listAccountApprovals'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/chat/completions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Talk to an agent through the OpenAI Chat Completions API
     * @description For the `openai` client and tools built on it: `model` is an agent id, or `agent:<name>` when exactly one agent has that name. The last message, which must be the user's, is sent to the agent as in `POST /v1/agents/{agentId}/messages`; `user` is its `userId`, so the agent remembers the conversation itself and earlier messages are not read; `system` and `developer` messages are given as `context` for this reply only. The agent's own character, knowledge, memory and plugins apply: its tools run inside agentd and are not shown to the client (`finish_reason` is then `stop`). `temperature` and `max_tokens` (or `max_completion_tokens`) override the agent's settings for this reply; other OpenAI fields are accepted and ignored.
     *
     *     The answer is a `chat.completion` whose `id` is the reply’s message id and whose `model` is the agent id; with `stream: true`, `chat.completion.chunk` events, a usage chunk with `stream_options.include_usage`, then `data: [DONE]`. Errors are OpenAI’s `{error: {message, type, param, code}}` (`code` is agentd’s) with the statuses of the native API. Scope: `messages:send`; the agent’s sendMessage limit and in-flight bound are shared with the native route.
     */
    post: operations['createChatCompletion'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/eval-datasets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List eval datasets
     * @description The account's eval datasets, newest first, without their cases (`caseCount` says how many); GET one for its cases. Follow `nextCursor` for older ones. Scope: `agents:read`.
     */
    get: operations['listEvalDatasets'];
    put?: never;
    /**
     * Create an eval dataset
     * @description A dataset of the account's: cases (at most 1,000, unique ids), each one or more user messages (at most 10) with an optional `userId`, `context`, `allowSideEffects` and its scorers (`expect`, at most 20): `contains`, `notContains`, `regex`, `equals`, `jsonSchema`, `toolCalled`, `noToolCalled`, `finishReason`, `latencyMs`, `tokens`, `costUsd` and `rubric` (a judge model). A regex pattern is at most 200 characters without backreferences or nested quantifiers; a JSON schema must compile. Any agent of the account can be evaluated on it: POST /v1/agents/{agentId}/evals. Scope: `agents:write`.
     */
    post: operations['createEvalDataset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/eval-datasets/{datasetId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an eval dataset
     * @description The dataset with its cases. Another account's dataset is 404. Scope: `agents:read`.
     */
    get: operations['getEvalDataset'];
    put?: never;
    post?: never;
    /**
     * Delete an eval dataset
     * @description The dataset is gone; evals made with it keep their copy of its cases and their results. A second DELETE is 404. Scope: `agents:write`.
     */
    delete: operations['deleteEvalDataset'];
    options?: never;
    head?: never;
    /**
     * Update an eval dataset
     * @description JSON Merge Patch (RFC 7396) of `name`, `description` (null clears it) and `cases` (replaces the whole list, checked as on create). Evals already made keep the cases they were made with. Scope: `agents:write`.
     */
    patch: operations['updateEvalDataset'];
    trace?: never;
  };
  '/v1/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the account's event trail
     * @description The events of every agent of the account, newest first, in the shape and pages of `GET /v1/agents/{agentId}/events`: narrow them to one agent with `agentId` (an id that is not one of the account's agents gives an empty page) and to one kind with `type`. Follow `nextCursor` for older events, with the same filters. Scope: `agents:read`.
     */
    get: operations['listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/files/{fileId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a file
     * @description The bytes of a stored file (an image sent with a message, or made by a tool such as generate_image), with its `Content-Type` (png, jpeg, webp or gif, as checked from the bytes), `ETag` and `Cache-Control: private, max-age=31536000, immutable`: a file never changes. `If-None-Match` with the ETag answers 304. Another account's file is 404, like a missing one; files are deleted with their agent. Scope: `agents:read`.
     */
    get: operations['getFile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/knowledge-bases': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List knowledge bases
     * @description Pages of the account's knowledge bases, newest first. Follow `nextCursor` or ask for `page` numbers. Scope: `agents:read`.
     */
    get: operations['listKnowledgeBases'];
    put?: never;
    /**
     * Create a knowledge base
     * @description A collection of documents agents retrieve from (attach it with the agent field `knowledgeBases`). Scope: `agents:write`.
     */
    post: operations['createKnowledgeBase'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/knowledge-bases/{knowledgeBaseId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a knowledge base
     * @description Scope: `agents:read`.
     */
    get: operations['getKnowledgeBase'];
    put?: never;
    post?: never;
    /**
     * Delete a knowledge base for good
     * @description Removes the base with its documents and chunks, and detaches it from every agent that used it (`detachedFrom` lists them). Scope: `agents:delete`.
     */
    delete: operations['deleteKnowledgeBase'];
    options?: never;
    head?: never;
    /**
     * Rename or describe a knowledge base
     * @description JSON Merge Patch (RFC 7396); `description: null` removes it. Scope: `agents:write`.
     */
    patch: operations['updateKnowledgeBase'];
    trace?: never;
  };
  '/v1/knowledge-bases/{knowledgeBaseId}/documents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a knowledge base's documents
     * @description Newest first, with their ingestion `status`. Scope: `agents:read`.
     */
    get: operations['listDocuments'];
    put?: never;
    /**
     * Add a document to a knowledge base
     * @description JSON `{title, content, contentType?}` (text, Markdown, HTML or JSON as text) or `{url, title?}` (fetched from a public address), or a `multipart/form-data` upload with one `file` part (text, Markdown, HTML, JSON or PDF; an optional `title` field before it). At most 10485760 bytes (AGENTD_KNOWLEDGE_MAX_DOCUMENT_BYTES). Answers 202 with the document `processing`: it is parsed, chunked, embedded and indexed in the background (poll it until `ready` or `failed`). The same bytes already in the base answer 200 with that document, changing nothing. Scope: `agents:write`.
     */
    post: operations['addDocument'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/knowledge-bases/{knowledgeBaseId}/documents/{documentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a document and its ingestion status
     * @description Scope: `agents:read`.
     */
    get: operations['getDocument'];
    put?: never;
    post?: never;
    /**
     * Delete a document with its chunks
     * @description Scope: `agents:delete`.
     */
    delete: operations['deleteDocument'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/knowledge-bases/{knowledgeBaseId}/documents/{documentId}/retry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ingest a failed document again
     * @description Puts a `failed` document back to `processing` (its content was kept). A document that has not failed is returned unchanged. Scope: `agents:write`.
     */
    post: operations['retryDocument'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/knowledge-bases/{knowledgeBaseId}/search': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Search a knowledge base
     * @description The chunks an agent's prompt would get for `query`, best first: full text and (with an embedding model) vector search, fused by reciprocal rank. Scope: `agents:read`.
     */
    post: operations['searchKnowledgeBase'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/mcp': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The MCP server (Streamable HTTP)
     * @description A Model Context Protocol server for MCP clients (IDEs, desktop assistants, other agents), on the Streamable HTTP transport: JSON-RPC messages in, a JSON-RPC response or an event stream of progress notifications and the response out. Tools: `list_agents`, `get_agent`, `send_message` and one `ask_<agent>` per agent with `mcp.exposed`; resources: each agent’s profile (`agentd://agents/{id}`, secrets masked). A tool call needs the scope its REST route needs (`agents:read`, `messages:send`), and tools/list and resources/list show a key only the tools and profiles its scopes let it use (an empty list when none; an `ask_<agent>` tool carries the bio and agent id only with `agents:read`). A call spends the same per-minute limits and in-flight slots; its reply is a run with trigger `mcp`. Stateless: every instance answers every request; GET and DELETE are 405. A `notifications/cancelled` stops the call it names (by request id within the `Mcp-Session-Id`, or within the API key without one) on whichever instance it lands. See docs/mcp-server.md.
     */
    post: operations['mcp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/metrics/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The account's usage, in total and per agent
     * @description The same totals as an agent's metrics, over whole hours from the hour of `from` (default 30 days before `to`) to the hour of `to` (default now) included: for the whole account and per agent in agent id order, `limit` agents a page (follow `nextCursor`). Agents deleted since are listed by id. Only the caller's account is counted. Scope: `agents:read`.
     */
    get: operations['getUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/metrics/usage/daily': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The account's messages and tokens per day and per model
     * @description The counts of `GET /v1/metrics/usage` (messages, failed messages, tool calls, input and output tokens) per UTC day from the day of `from` (default 30 days before `to`, at most 366 days) to the hour of `to` (default now), and per model: the model each agent is set to now, `null` for agents deleted since. Only days and models with traffic are listed. Only the caller's account is counted. Scope: `agents:read`.
     */
    get: operations['getDailyUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/models': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The account's agents as OpenAI models
     * @description OpenAI's models list: each agent of the account is a model whose id is the agent id, newest first, at most 1000 (OpenAI's list has no pages; walk `GET /v1/agents` for more). Errors in OpenAI's shape. Scope: `agents:read`; counts against the listAgents limit.
     */
    get: operations['listModels'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/models/{model}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One agent as an OpenAI model
     * @description The agent named by its id or as `agent:<name>`, as an OpenAI model. Errors in OpenAI’s shape. Scope: `agents:read`; counts against the getAgent limit.
     */
    get: operations['getModel'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/platforms': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the platform connectors this server runs
     * @description An agent's `platforms` entries of these types are run by the service while the agent is `active` and the entry `enabled`; `settings` and `secrets` are checked against the schemas here on create and PATCH (400 `validation_failed` with the JSON pointer of each problem). Entries of other types are stored and reported `unsupported`. Any valid key may read this list.
     */
    get: operations['listPlatforms'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/platforms/{type}/{agentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Inbound requests from a platform (the generic webhook)
     * @description For platforms, not API clients: `POST /v1/platforms/webhook/{agentId}` signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature with the entry’s `secrets.signingSecret`), body `{userId, roomId?, text}` → `{text, limited}`, or 202 when the entry has a `callbackUrl` and the reply takes longer than `replyWaitMs`. A wrong or old (over 5 minutes) signature is 401; a `webhook-id` already received is 202 `{accepted, requestId, duplicate: true}`, not answered again. Deprecated: `content`, the former name of `text`, is still read (sent with a different `text`: 400 naming `/body/content`), and the answer still carries `reply`, a copy of `text`.
     */
    post: operations['platformInbound'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/platforms/{type}/{agentId}/{*}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Inbound requests from a platform (Telegram webhooks, Slack events)
     * @description For platforms, not API clients: `POST /v1/platforms/telegram/{agentId}/webhook` (checked with the X-Telegram-Bot-Api-Secret-Token header the service set with setWebhook; wrong → 401, nothing processed), `POST /v1/platforms/slack/{agentId}/events`.
     */
    post: operations['platformInboundPath'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/plugins': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the plugins this server offers
     * @description An agent's `plugins` entries name one of these; `config` is checked against its `configSchema` and `secrets` against its `secretsSchema` on create and PATCH (400 `validation_failed` with the JSON pointer of each problem); some plugins check further then: `openapi` reads, validates and dereferences its document (fetching a `url`), `http` checks that every secret its `secretHeaders` names is set. Each enabled plugin gives the model tools it may call while answering. Any valid key may read this list.
     */
    get: operations['listPlugins'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the account's runs
     * @description The runs of every agent of the key's account, newest first, as GET /v1/agents/{id}/runs lists one agent's: filter by `agentId`, `status` or `trigger`, and follow `nextCursor` for older runs. An unknown `agentId` gives an empty list. Scope: `agents:read`.
     */
    get: operations['listAccountRuns'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhooks
     * @description The account's webhooks, newest first, by `page` or by following `nextCursor`; never their secrets. Scope: `agents:read`.
     */
    get: operations['listWebhooks'];
    put?: never;
    /**
     * Subscribe a URL to events
     * @description Events of the account are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the `secret` of this response, which is never shown again. The URL must reach a public address unless the operator allows private ones. Scope: `agents:write`.
     */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{webhookId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a webhook
     * @description The webhook without its secret. Scope: `agents:read`.
     */
    get: operations['getWebhook'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook
     * @description Removes the webhook and its delivery log; nothing more is sent to it. Scope: `agents:write`.
     */
    delete: operations['deleteWebhook'];
    options?: never;
    head?: never;
    /**
     * Change a webhook
     * @description Fields sent replace the stored ones; `description: null` clears it. `enabled: false` stops deliveries, including retries already scheduled. Scope: `agents:write`.
     */
    patch: operations['updateWebhook'];
    trace?: never;
  };
  '/v1/webhooks/{webhookId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a webhook's delivery log
     * @description Deliveries newest first, each with its state and every attempt (status code, duration, error). Finished deliveries are kept for AGENTD_WEBHOOK_RETENTION_DAYS (7). Scope: `agents:read`.
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send an event again
     * @description Queues a new delivery of the same event (same `webhook-id` and body) with a fresh retry schedule; answers 202 with it. The webhook must be enabled. Scope: `agents:write`.
     */
    post: operations['redeliverWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/webhooks/{webhookId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace a webhook's signing secret
     * @description A new `secret`, shown only in this response; every attempt from now on is signed with it. Scope: `agents:write`.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'agent.budget_exceeded': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A spend limit refused a message or task of the agent: sent once per limit and period (the first refusal), whichever instance refused it. The agent keeps its status; its `statusReason` says the same until it resets. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              /** @description The API key id that made the change, or `service`. */
              actor: string;
              agentId: string;
              /** @description The limit, in `unit`. */
              limit: number;
              /**
               * @description A UTC day or month.
               * @enum {string}
               */
              period: 'day' | 'month';
              requestId: string | null;
              /** @description What replies in flight reserved, in `unit`. */
              reserved: number;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              resetsAt: string;
              /**
               * @description Whose limit: the agent's or its account's.
               * @enum {string}
               */
              scope: 'agent' | 'account';
              /** @description What replies that ended spent in the period, in `unit`. */
              spent: number;
              /** @enum {string} */
              unit: 'tokens' | 'usd';
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'agent.budget_exceeded';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'agent.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** An agent was created. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              /** @description The API key id that made the change, or `service`. */
              actor: string;
              agentId: string;
              name: string;
              requestId: string | null;
              status: string;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'agent.created';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'agent.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** An agent was deleted. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              /** @description The API key id that made the change, or `service`. */
              actor: string;
              agentId: string;
              name: string;
              requestId: string | null;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'agent.deleted';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'agent.status_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** An agent's status changed, by its owner or by the service (e.g. the provider rejected its credentials). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              /** @description The API key id that made the change, or `service`. */
              actor: string;
              agentId: string;
              /** @enum {string} */
              by: 'owner' | 'service';
              from: string;
              reason: string;
              requestId: string | null;
              to: string;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'agent.status_changed';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'agent.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** An agent was changed: which fields (and which plugin or platform entries, and secret names) changed. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              /** @description The API key id that made the change, or `service`. */
              actor: string;
              agentId: string;
              /** @description Names of the fields that changed; never their values. */
              fields: string[];
              model?: {
                fields: string[];
              };
              platforms?: {
                change: string;
                entry: string;
              }[];
              plugins?: {
                change: string;
                entry: string;
              }[];
              requestId: string | null;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'agent.updated';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'agent.version_created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A change to an agent's configuration (create, PATCH, character import, restore, or a knowledge base it used being deleted) was kept as a new version: GET /v1/agents/{agentId}/versions/{version} reads it. A change of status alone makes no version. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              /** @description The API key id that made the change, or `service`. */
              actor: string;
              agentId: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              /** @description The API key that made the change. */
              keyId: string;
              requestId: string | null;
              /** @description The new version of the agent’s configuration (1 at create). */
              version: number;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'agent.version_created';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'approval.requested': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The model called a tool that needs approval; the run waits for POST /v1/agents/{agentId}/approvals/{approvalId}. The input is not included; read it from GET /v1/agents/{agentId}/approvals/{approvalId}. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              agentId: string;
              approvalId: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              expiresAt: string;
              /** @description The tool waiting for a decision. */
              name: string;
              roomId: string | null;
              /** @description The run that paused. */
              runId: string;
              toolCallId: string;
              userId: string | null;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'approval.requested';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'eval.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** An eval of the agent ended (completed, or failed; a cancelled one sends nothing): its totals per version. Each case’s replies and scores are at GET /v1/agents/{agentId}/evals/{evalId}. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              agentId: string;
              datasetId: string;
              /** @description Cases whose outcome differs between the two versions. */
              differing: number;
              error: {
                code: string;
                detail: string;
                status: number;
              } | null;
              evalId: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              finishedAt: string;
              /**
               * @description `failed`: `error` says why.
               * @enum {string}
               */
              status: 'completed' | 'failed';
              /** @description Per version, as GET …/evals/{evalId} gives them. */
              totals: {
                /** @description Cases of this version with a result. */
                cases: number;
                /** @description Cases whose reply could not be given (each scorer then scores 0). */
                errored: number;
                /** @description Cases answered, with a scorer that did not pass. */
                failed: number;
                /** @description Cases every scorer of which passed. */
                passed: number;
                /** @description Per scorer type, in the order of `scorerTypes`. */
                scorers: {
                  /** @description Scores given (cases with this scorer that were answered). */
                  count: number;
                  /** @description The mean score, 0–1 (0 when none was given). */
                  meanScore: number;
                  passed: number;
                  /** @enum {string} */
                  type:
                    | 'contains'
                    | 'notContains'
                    | 'regex'
                    | 'equals'
                    | 'jsonSchema'
                    | 'toolCalled'
                    | 'noToolCalled'
                    | 'finishReason'
                    | 'latencyMs'
                    | 'tokens'
                    | 'costUsd'
                    | 'rubric';
                }[];
                version: number;
              }[];
              versions: number[];
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'eval.completed';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'memory.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** An agent's long-term memory of a conversation changed (summary or facts). The remembered text is not included; read it from GET /v1/agents/{agentId}/memory. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              /** @description The API key id that made the change, or `service`. */
              actor: string;
              agentId: string;
              facts: {
                added: number;
                removed: number;
                replaced: number;
              };
              requestId: string | null;
              roomId: string | null;
              /** @enum {string} */
              source: 'background' | 'api';
              /** @description Whether the conversation's summary changed. */
              summary: boolean;
              userId: string | null;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'memory.updated';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'message.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** An agent answered a message. The texts are not included; read them from the conversation history. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              agentId: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              finishReason: string;
              latencyMs: number;
              /** @description The id of the reply. */
              messageId: string;
              model: {
                name: string;
                provider: string;
              };
              roomId: string | null;
              /** @description How many tool calls the reply made. */
              toolCallCount: number;
              /**
               * @deprecated
               * @description Deprecated: the former name of `toolCallCount` (in the reply itself `toolCalls` is the list of calls).
               */
              toolCalls: number;
              usage: {
                inputTokens: number;
                outputTokens: number;
                totalTokens: number;
              };
              userId: string | null;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'message.completed';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'message.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A reply failed: the model provider failed or rejected the agent's credentials. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              agentId: string;
              error: {
                code: string;
                detail: string;
                status: number;
              };
              messageId: string;
              roomId: string | null;
              userId: string | null;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'message.failed';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'task.completed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A run of a task whose output is `webhook` completed; the reply is in `text`. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              agentId: string;
              /**
               * Format: date-time
               * @deprecated
               * @description Deprecated: the former name of `finishedAt` (the run’s name for the same time).
               */
              completedAt: string;
              /**
               * Format: date-time
               * @description The due time the run was for; null for a run started now.
               */
              dueAt: string | null;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              finishedAt: string;
              /** @description The id of the reply. */
              messageId: string;
              /** @description The task's name. */
              name: string;
              runId: string;
              taskId: string;
              /** @description The agent's reply: the task's output. */
              text: string;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'task.completed';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'task.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A run of a task failed, or its output could not be delivered (any output type). */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              agentId: string;
              /** @description Failed runs of the task in a row, this one included. */
              consecutiveFailures: number;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds, or null.
               */
              dueAt: string | null;
              error: {
                code: string;
                detail: string;
                status: number;
              };
              name: string;
              runId: string;
              taskId: string;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'task.failed';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'task.paused': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The service paused a task (`enabled: false`) because its last runs failed; PATCH `enabled: true` resumes it. */
    post: {
      parameters: {
        query?: never;
        header: {
          /** @description The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it. */
          'webhook-id': string;
          /** @description `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks). */
          'webhook-signature': string;
          /** @description Unix seconds when this attempt was signed. */
          'webhook-timestamp': string;
        };
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            data: {
              /** @description The API key id that made the change, or `service`. */
              actor: string;
              agentId: string;
              consecutiveFailures: number;
              name: string;
              reason: string;
              requestId: string | null;
              taskId: string;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            timestamp: string;
            /** @constant */
            type: 'task.paused';
          };
        };
      };
      responses: {
        /** @description Received. Any other answer, or none within the time-out, is retried. */
        '2XX': {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    /** Agent */
    Agent: {
      bio: string[];
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      createdAt: string;
      deletionProtection: boolean;
      expertise: string[];
      goals: {
        motivations: string[];
        objectives: string[];
      };
      id: string;
      knowledge: (
        | string
        | {
            content: string;
            title?: string;
          }
      )[];
      knowledgeBases: string[];
      limits: {
        spend: {
          costPerDay: number | null;
          costPerMonth: number | null;
          tokensPerDay: number | null;
          tokensPerMonth: number | null;
        };
      };
      mcp: {
        /** @description Offer the agent as its own tool, `ask_<name>`, on the MCP server at /v1/mcp (default false). Every agent can be reached with `send_message` either way. */
        exposed: boolean;
      };
      memory: {
        budgets: {
          factsTokens: number;
          historyTokens: number | null;
          recallTokens: number;
          summaryTokens: number;
        };
        facts: boolean;
        recall: boolean;
        schedule: {
          everyUserTurns: number;
          idleSeconds: number;
        };
        summary: boolean;
      };
      metadata: {
        [key: string]: string;
      };
      model: {
        /** @description Masked. */
        apiKey?: string;
        maxOutputTokens?: number;
        maxSteps?: number;
        name: string;
        provider: string;
        temperature?: number;
        topP?: number;
      };
      name: string;
      personality: {
        style: string[];
        tone: string | null;
        traits: string[];
      };
      platforms: {
        enabled: boolean;
        /** @description Masked: "••••" and the last four characters (only "••••" for secrets under 12 characters). */
        secrets: {
          [key: string]: string;
        };
        /** @description Free-form JSON settings. */
        settings: {
          [key: string]: unknown;
        };
        type: string;
      }[];
      plugins: {
        /** @description A call of one of these tools pauses the run until POST /v1/agents/{id}/approvals/{approvalId} approves or denies it. A plugin may make some of its tools wait whatever this names (the evm plugin’s evm_transfer, unless its config sets transfers.requireApproval to false); this adds to them and cannot take them away. */
        approval?: {
          /** @description How long a request waits for a decision before it expires (default 86400: 24 h; ≤ 30 days). */
          expiresAfterSeconds?: number;
          /** @description The tools (as the model knows them, e.g. fetch_url, mcp_add) that need approval, or "*": all. */
          tools: string[] | '*';
        };
        /** @description Free-form JSON settings. */
        config: {
          [key: string]: unknown;
        };
        enabled: boolean;
        name: string;
        /** @description Masked: "••••" and the last four characters (only "••••" for secrets under 12 characters). */
        secrets: {
          [key: string]: string;
        };
      }[];
      /** @enum {string} */
      status: 'active' | 'inactive' | 'error';
      statusReason: string | null;
      system: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      updatedAt: string;
      /** @description The configuration version: 1 at create, one more with each change of configuration (not of status). GET /v1/agents/{agentId}/versions lists them. */
      version: number;
    };
    /** Approval */
    Approval: {
      agentId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds, or null.
       */
      decidedAt: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      expiresAt: string;
      id: string;
      /** @description The input the model gave (JSON). */
      input: unknown;
      /** @description The tool, as the model knows it. */
      name: string;
      /** @description The reason given with the decision, as the model read it. */
      reason: string | null;
      /** @description The run (trigger `approval`) that goes on with the reply once every pending call of the paused run is decided: GET …/runs/{runId} and its events. */
      resumedRunId: string | null;
      roomId: string | null;
      /** @description The run that paused for this decision (status `waiting` until every decision is in). */
      runId: string;
      /**
       * @description `pending` until decided; `approved` (the tool ran), `denied` (it never ran; the model was told) or `expired` (no decision within its time: treated as denied).
       * @enum {string}
       */
      status: 'pending' | 'approved' | 'denied' | 'expired';
      /** @description The model's id for the call. */
      toolCallId: string;
      userId: string | null;
    };
    /** Attachment */
    Attachment: {
      fileId: string;
      /** @description Pixels, from the image header. */
      height?: number;
      /**
       * @description png, jpeg, webp or gif; always checked against the bytes themselves (their magic numbers).
       * @enum {string}
       */
      mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
      sizeBytes: number;
      /** @enum {string} */
      type: 'image';
      /** @description Where key holders of the account fetch it: /v1/files/{fileId}. */
      url: string;
      /** @description Pixels, from the image header. */
      width?: number;
    };
    /** KnowledgeBase */
    KnowledgeBase: {
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      createdAt: string;
      description: string | null;
      id: string;
      name: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      updatedAt: string;
    };
    /** KnowledgeDocument */
    KnowledgeDocument: {
      chunkCount: number;
      /** @description SHA-256 of the bytes, hex. The same bytes again are the same document. */
      contentHash: string;
      contentType: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      createdAt: string;
      id: string;
      knowledgeBaseId: string;
      sizeBytes: number;
      source: {
        filename?: string;
        /** @enum {string} */
        kind: 'text' | 'url' | 'upload';
        url?: string;
      };
      /**
       * @description `processing` (waiting or being indexed), `ready` (searchable), `failed` (see statusReason).
       * @enum {string}
       */
      status: 'processing' | 'ready' | 'failed';
      statusReason: string | null;
      title: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      updatedAt: string;
    };
    /** MessageReply */
    MessageReply: {
      agentId: string;
      /** @description With `finishReason: approval_required`: the tool calls waiting for a decision (POST /v1/agents/{id}/approvals/{approvalId}); the reply goes on in a new run once all are decided. */
      approvals?: components['schemas']['PendingApproval'][];
      /** @description Images this reply produced (made by its tools, e.g. generate_image), stored and served at their `url` (empty when none). */
      attachments: components['schemas']['Attachment'][];
      /** @description The chunks of the agent's knowledge bases its prompt held for this reply, best first (empty when none). */
      citations: {
        chunkId: string;
        documentId: string;
        /** @description The chunk's opening as the prompt held it (its heading, then up to 200 characters of its text, cut at a word with `…`); absent in replies made before excerpts were recorded. */
        excerpt?: string;
        knowledgeBaseId: string;
        score: number;
        title: string;
      }[];
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      createdAt: string;
      /**
       * @description `stop` (complete), `length` (maxOutputTokens reached), `aborted` (the client went away), `error` (the provider failed mid-answer), `approval_required` (the model called a tool that waits for a person: see `approvals`), or another reason the provider gave.
       * @enum {string}
       */
      finishReason:
        'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'aborted' | 'approval_required';
      id: string;
      /** @description Milliseconds from receiving the message to the end of the reply. */
      latencyMs: number;
      model: {
        name: string;
        provider: string;
      };
      roomId: string | null;
      /** @description The run this reply is: GET /v1/agents/{id}/runs/{runId} (and its events). */
      runId: string;
      text: string;
      /** @description The tools the agent ran for this reply, in order (empty when none). */
      toolCalls: components['schemas']['ToolCall'][];
      /** @description Token counts reported by the provider (estimated for the builtin model and for aborted replies), and what they cost. */
      usage: {
        /** @description Of `inputTokens`, those the provider read from its prompt cache (billed lower): the stable start of the prompt it saw in an earlier call (README, "Prompt caching"). Absent when there were none, or the provider does not report them. */
        cachedInputTokens?: number;
        /** @description What the reply cost in US dollars, priced when it was made from the price table (the defaults of the README, "Model prices", and AGENTD_MODEL_PRICES); 0 when the model has no price (`priced` false). Absent on replies stored before agentd priced them. */
        costUsd?: number;
        inputTokens: number;
        outputTokens: number;
        /** @description false when the model has no price in the table (an unknown model costs nothing and says so here). */
        priced?: boolean;
        totalTokens: number;
      };
      userId: string | null;
    };
    /** PendingApproval */
    PendingApproval: {
      approvalId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      expiresAt: string;
      input: unknown;
      name: string;
      toolCallId: string;
    };
    /** Problem */
    Problem: {
      /** @description budget_exceeded: the agent the message was for. */
      agentId?: string;
      /**
       * @description Stable machine-readable error code.
       * @enum {string}
       */
      code:
        | 'invalid_json'
        | 'validation_failed'
        | 'unauthorized'
        | 'insufficient_scope'
        | 'deletion_protected'
        | 'not_found'
        | 'method_not_allowed'
        | 'idempotency_in_progress'
        | 'conflict'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'idempotency_key_reused'
        | 'rate_limited'
        | 'concurrency_limited'
        | 'budget_exceeded'
        | 'agent_unavailable'
        | 'provider_unavailable'
        | 'service_unavailable'
        | 'internal';
      detail: string;
      errors?: {
        /**
         * @description Stable machine-readable kind of problem: `required`, `unknown_property`, `read_only`, `type`, `enum`, `too_short` (a string, list or map below its minimum, or empty), `too_long`, `too_small` (a number below its minimum), `too_large`, `pattern` (not in the accepted form), `not_url`, `invalid_id` (not an id of the kind the field takes), `format` (e.g. not a date-time), `not_unique`, `invalid_key` (a key of a map), or `invalid` (any other problem).
         * @enum {string}
         */
        code:
          | 'required'
          | 'unknown_property'
          | 'read_only'
          | 'type'
          | 'enum'
          | 'too_short'
          | 'too_long'
          | 'too_small'
          | 'too_large'
          | 'pattern'
          | 'not_url'
          | 'invalid_id'
          | 'format'
          | 'not_unique'
          | 'invalid_key'
          | 'invalid';
        /** @description What is wrong, in words that follow the field name: "must not be empty", "must be an http(s) URL", "is not a knowledge base id". Never a raw pattern; may change between versions, unlike `code`. */
        message: string;
        /** @description JSON pointer into the request, e.g. /body/name or /query/limit. */
        path: string;
      }[];
      /** @description budget_exceeded: the limit, in `unit`. */
      limit?: number;
      /**
       * @description budget_exceeded: a UTC day or month.
       * @enum {string}
       */
      period?: 'day' | 'month';
      requestId: string;
      /** @description budget_exceeded: reserved by replies in flight, in `unit`. */
      reserved?: number;
      /**
       * Format: date-time
       * @description budget_exceeded: when the period resets.
       */
      resetsAt?: string;
      /**
       * @description budget_exceeded: whose limit.
       * @enum {string}
       */
      scope?: 'agent' | 'account';
      /** @description budget_exceeded: spent by replies that ended, in `unit`. */
      spent?: number;
      status: number;
      title: string;
      /** @description A link to the documentation of this error code. */
      type: string;
      /**
       * @description budget_exceeded: the unit.
       * @enum {string}
       */
      unit?: 'tokens' | 'usd';
    };
    /** Run */
    Run: {
      agentId: string;
      /** @description The agent's configuration version that produced the run (GET …/versions/{n}); null for runs made before versions were recorded, and for runs not started yet. */
      agentVersion: number | null;
      /** @description For `approval` runs: the decision that resumed the reply (GET …/approvals/{approvalId}). */
      approvalId: string | null;
      /** @description Produced by the service, not a connection: a background message or a task. */
      background: boolean;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds, or null.
       */
      cancelRequestedAt: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description The task's due time this run is for (RFC 3339).
       */
      dueAt: string | null;
      /** @description Why the run failed or was cancelled, as a problem; null otherwise. */
      error: components['schemas']['Problem'] | null;
      /** @description Events recorded: the `id` of the last one. Exact once the run has ended, and on the instance producing it. */
      eventCount: number;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds, or null.
       */
      finishedAt: string | null;
      id: string;
      /** @description The message (or the task’s instructions) the run answers. */
      input: string;
      /** @description The id of the reply (`msg_…`) once it has begun. */
      messageId: string | null;
      /** @description The reply as POST …/messages returns it, once the run has ended with one (also when cancelled). */
      reply: components['schemas']['MessageReply'] | null;
      roomId: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds, or null.
       */
      startedAt: string | null;
      /**
       * @description `queued` (waiting for one of the agent’s in-flight slots), `running`, then `completed`, `failed`, `cancelled` (by POST …/cancel, or its client went away) or, for task due times not run, `skipped`. `waiting`: the reply ended with `approval_required` and waits for a decision on its approvals; it becomes `completed` when they are decided (the reply goes on in a run with trigger `approval`).
       * @enum {string}
       */
      status: 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled' | 'skipped';
      /** @description How many times another instance took the run over after the one producing it stopped (docs/runs.md, "When an instance stops"). */
      takeovers: number;
      /** @description The task whose due time this run is, for `task` runs. */
      taskId: string | null;
      /**
       * @description `message`: POST /v1/agents/{id}/messages; `task`: a scheduled task; `platform`: a message on one of the agent's platforms; `door`: the OpenAI-compatible endpoint; `mcp`: a tool call of an MCP client (`send_message`, `ask_<agent>`, at /v1/mcp); `a2a`: an A2A message (at /v1/a2a/{agentId}, its task id is the run's id); `approval`: the rest of a reply that paused for a decision, once it was taken (`approvalId` names it); `eval`: a reply to a case of an eval (POST /v1/agents/{id}/evals), answered in isolation (docs/evals.md).
       * @enum {string}
       */
      trigger: 'message' | 'task' | 'platform' | 'door' | 'mcp' | 'a2a' | 'approval' | 'eval';
      userId: string | null;
    };
    /**
     * RunStep
     * @description One step; exactly one of `model`, `tool`, `approval` or `resume` is present, as `kind` says.
     */
    RunStep: {
      approval?: {
        approvalId: string;
        /**
         * Format: date-time
         * @description RFC 3339 UTC time with milliseconds, or null.
         */
        decidedAt: string | null;
        input: unknown;
        reason: string | null;
        /** @description The run (trigger `approval`) the reply went on in. */
        resumedRunId: string | null;
        /** @enum {string} */
        status: 'pending' | 'approved' | 'denied' | 'expired';
        toolCallId: string;
        toolName: string;
      };
      /**
       * Format: date-time
       * @description When the step began (for a tool call: when it ended less its duration).
       */
      at: string | null;
      durationMs: number | null;
      /** @description The step's place in the run, from 1 (GET …/steps/{index}/prompt). */
      index: number;
      /** @enum {string} */
      kind: 'model' | 'tool' | 'approval' | 'resume';
      model?: {
        /** @enum {string} */
        finishReason:
          'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'aborted' | 'approval_required';
        /** @description Milliseconds from the call to the answer's first part; null for steps recorded before it was. */
        firstTokenMs: number | null;
        name: string;
        /** @description The sections' tokens summed: the prompt's estimated size. */
        promptTokens: number;
        provider: string;
        /** @description Attempts that failed (and were retried) before the one that answered. */
        retries: number;
        /** @description The prompt's make-up, in the order the model reads it. */
        sections: {
          /** @description How many entries it holds (turns, facts, knowledge hits, tools …). */
          items: number;
          /** @description The section as the dashboard names it. */
          label: string;
          /** @enum {string} */
          name:
            | 'system'
            | 'summary'
            | 'facts'
            | 'tools'
            | 'history'
            | 'knowledge'
            | 'recalled'
            | 'context'
            | 'notes'
            | 'message'
            | 'tool-rounds';
          /** @description Its size in tokens, estimated as agentd estimates prompts. */
          tokens: number;
        }[];
        /** @description The model step's number within the reply, from 1. */
        step: number;
        /** @description What the model said in this step. */
        text: string;
        /** @description The tool calls the model asked for in this step. */
        toolCalls: {
          /** @description The input the model gave (JSON, or its text when it was not JSON). */
          input: unknown;
          name: string;
          toolCallId: string;
        }[];
        usage: {
          cachedInputTokens?: number;
          inputTokens: number;
          outputTokens: number;
          totalTokens: number;
        };
      };
      resume?: {
        /** @description The paused round's calls this run went on with. */
        calls: number;
        /** @description The run that paused for the decisions. */
        fromRunId: string | null;
        /** @enum {string} */
        reason: 'approval';
      };
      tool?: components['schemas']['ToolCall'];
    };
    /** RunStepPrompt */
    RunStepPrompt: {
      contextTokens: number | null;
      index: number;
      /** @description The messages as sent, oldest first. */
      messages: {
        /** @description Images sent with the message (not repeated here). */
        images?: number;
        isError?: boolean;
        /** @enum {string} */
        role: 'user' | 'assistant' | 'tool';
        /** @description The text as sent (a tool message: the result, as JSON or text). */
        text: string;
        toolCallId?: string;
        toolCalls?: {
          /** @description The input the model gave (JSON, or its text when it was not JSON). */
          input: unknown;
          name: string;
          toolCallId: string;
        }[];
        toolName?: string;
      }[];
      model: {
        name: string;
        provider: string;
      };
      runId: string;
      sections: {
        /** @description How many entries it holds (turns, facts, knowledge hits, tools …). */
        items: number;
        /** @description The section as the dashboard names it. */
        label: string;
        /** @enum {string} */
        name:
          | 'system'
          | 'summary'
          | 'facts'
          | 'tools'
          | 'history'
          | 'knowledge'
          | 'recalled'
          | 'context'
          | 'notes'
          | 'message'
          | 'tool-rounds';
        /** @description Its size in tokens, estimated as agentd estimates prompts. */
        tokens: number;
      }[];
      /** @description The system prompt as sent. */
      system: string;
      /** @description The tools offered with this step (none on a last step past the reply’s step limit). */
      tools: {
        description: string;
        inputSchema: unknown;
        name: string;
      }[];
    };
    /** Task */
    Task: {
      agentId: string;
      /** @description Failed runs in a row; at 3 the task is paused. */
      consecutiveFailures: number;
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      createdAt: string;
      enabled: boolean;
      id: string;
      instructions: string;
      /** @description Why the last run failed, or its output could not be delivered; null after a success. */
      lastError: string | null;
      /**
       * Format: date-time
       * @description When the last run of the task ended.
       */
      lastRunAt: string | null;
      lastRunStatus: ('queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled' | 'skipped') | null;
      name: string;
      /**
       * Format: date-time
       * @description The next due time (RFC 3339); null when disabled or a one-off task has run.
       */
      nextDueAt: string | null;
      /** @description Where the reply goes besides the run: nowhere else, a platform target, or webhooks. */
      output:
        | {
            /** @enum {string} */
            type: 'none';
          }
        | {
            /**
             * @description One of the agent's platforms.
             * @enum {string}
             */
            platform: 'telegram' | 'slack' | 'discord' | 'x' | 'bluesky';
            /** @description Where the reply is posted: a Telegram chat id (or `@channel`), a Slack channel id (`<channel>/<thread ts>` for a thread) or a Discord channel id; for X and Bluesky `timeline` (a post of its own) or the post to reply to (an X post id, a Bluesky at:// URI). */
            target: string;
            /** @enum {string} */
            type: 'platform';
          }
        | {
            /** @enum {string} */
            type: 'webhook';
          };
      /** @description Why the service paused the task (e.g. its last 3 runs failed); null otherwise. */
      pausedReason: string | null;
      /** @description When the task is due: `{ cron, timezone }`, `{ everySeconds }` or `{ at }` (once). */
      schedule:
        | {
            /**
             * @description A five-field cron expression (minute hour day-of-month month day-of-week), e.g. `0 8 * * 1-5`, or a nickname such as `@daily`.
             * @example 0 8 * * 1-5
             * @example @daily
             */
            cron: string;
            /**
             * @description The IANA time zone the expression is read in (default `UTC`), e.g. `Europe/Berlin`. Across a DST change a time that does not exist runs at the first minute after it, a time that happens twice runs once.
             * @default UTC
             * @example Europe/Berlin
             * @example UTC
             */
            timezone: string;
          }
        | {
            /**
             * @description Seconds between due times, counted from when the schedule was set; at least 60 unless the operator lowered AGENTD_TASK_MIN_INTERVAL_SECONDS.
             * @example 3600
             */
            everySeconds: number;
          }
        | {
            /**
             * @description One due time, RFC 3339 with an offset (e.g. `2030-01-31T08:00:00+01:00`); a past time runs now.
             * @example 2030-01-31T08:00:00+01:00
             */
            at: string;
          };
      /**
       * Format: date-time
       * @description RFC 3339 UTC time with milliseconds.
       */
      updatedAt: string;
    };
    /** ToolCall */
    ToolCall: {
      /** @description For a tool that waited for a person: their decision (the call ran only when `approved`). */
      approval?: {
        approvalId: string;
        reason: string | null;
        /** @enum {string} */
        status: 'approved' | 'denied' | 'expired';
      };
      /** @description Images the tool made (stored files), when it made any. */
      attachments?: components['schemas']['Attachment'][];
      durationMs: number;
      /** @description What went wrong, as the model was told; no output then. */
      error?: string;
      /** @description The input the model gave (JSON). */
      input: unknown;
      /** @description The tool, as the model knows it (e.g. fetch_url, mcp_add). */
      name: string;
      /** @description What the tool returned, as given to the model (capped, with a marker when cut). */
      output?: unknown;
      /** @description The model's id for this call. */
      toolCallId: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  health: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'ok';
          };
        };
      };
    };
  };
  metrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  ready: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            checks: {
              [key: string]: string;
            };
            /** @description `ok`, `degraded` (serving with reduced guarantees) or `unavailable`. */
            status: string;
          };
        };
      };
      /** @description Default Response */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            checks: {
              [key: string]: string;
            };
            /** @description `ok`, `degraded` (serving with reduced guarantees) or `unavailable`. */
            status: string;
          };
        };
      };
    };
  };
  listAgentCards: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              agentId: string;
              /** @description An A2A AgentCard. */
              card: {
                [key: string]: unknown;
              };
              cardUrl: string;
            }[];
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  a2aJsonRpc: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    /** @description A JSON-RPC 2.0 request of A2A. */
    requestBody: {
      content: {
        'application/json': unknown;
      };
    };
    responses: {
      /** @description The JSON-RPC response, or for streaming methods an event stream of responses. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
          'text/event-stream': string;
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getAgentCard: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description An A2A AgentCard. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getAccountLimits: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            spend: {
              costPerDay: number | null;
              costPerMonth: number | null;
              tokensPerDay: number | null;
              tokensPerMonth: number | null;
            };
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  putAccountLimits: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          spend: {
            costPerDay?: number | null;
            costPerMonth?: number | null;
            tokensPerDay?: number | null;
            tokensPerMonth?: number | null;
          };
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            spend: {
              costPerDay: number | null;
              costPerMonth: number | null;
              tokensPerDay: number | null;
              tokensPerMonth: number | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listAgents: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page: continues after its last agent with the same filter and sort. */
        cursor?: string;
        /** @description Agents per page, 1–100 (default 20). */
        limit?: number;
        /** @description Default desc. */
        order?: 'asc' | 'desc';
        /** @description Page number, from 1 (default 1). Ignored with `cursor`. */
        page?: number;
        /** @description Default createdAt. Name order ignores case; ties are broken by id. */
        sortBy?: 'createdAt' | 'name' | 'status';
        status?: 'active' | 'inactive' | 'error';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Agent'][];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
              page: number;
              /** @description Agents matching the filter. */
              total: number;
              totalPages: number;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  createAgent: {
    parameters: {
      query?: never;
      header?: {
        /** @description Printable ASCII, 1–255 characters. */
        'idempotency-key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description A string or a list of strings; read back as a list. */
          bio?: string | string[];
          deletionProtection?: boolean;
          expertise?: string[];
          goals?: {
            motivations?: string[];
            objectives?: string[];
          };
          /** @description Up to 100 items and 1 MiB of text in all. The most relevant items are retrieved for each message. */
          knowledge?: (
            | string
            | {
                content: string;
                title?: string;
              }
          )[];
          /** @description Knowledge bases of this account (kb_…) the agent retrieves from for every message, cited in replies' `citations`. At most 20. */
          knowledgeBases?: string[];
          limits?: {
            spend?: {
              costPerDay?: number | null;
              costPerMonth?: number | null;
              tokensPerDay?: number | null;
              tokensPerMonth?: number | null;
            } | null;
          };
          mcp?: {
            /** @description Offer the agent as its own tool, `ask_<name>`, on the MCP server at /v1/mcp (default false). Every agent can be reached with `send_message` either way. */
            exposed: boolean;
          };
          /** @description Long-term memory: what the agent keeps beyond its context window, and the prompt share of each. */
          memory?: {
            budgets?: {
              /** @description Tokens the prompt gives facts at most (default 300). */
              factsTokens?: number;
              historyTokens?: number | null;
              /** @description Tokens the prompt gives recalled turns at most (default 400). */
              recallTokens?: number;
              /** @description Tokens the prompt gives the summary at most (default 400). */
              summaryTokens?: number;
            };
            /** @description Extract facts about each user (batched, see schedule) and carry those of the users present (default true). */
            facts?: boolean;
            /** @description Carry the earlier turns most relevant to the message, from outside the window (default true). */
            recall?: boolean;
            /** @description When memory work (and its model calls) runs: in batches, not after every exchange. */
            schedule?: {
              /** @description Facts are extracted once this many user turns that say something wait, in one model call (default 8; 1: after every exchange). Turns about to leave the window are processed first whatever the count; greetings and thanks alone cost no call. */
              everyUserTurns?: number;
              /** @description Turns still waiting are processed once the conversation has had no message for this long (default 600). */
              idleSeconds?: number;
            };
            /** @description Fold turns that leave the window into a rolling summary carried by the prompt (default true). */
            summary?: boolean;
          };
          /** @description Up to 50 string keys with string values of at most 500 characters. */
          metadata?: {
            [key: string]: string;
          };
          model?: {
            /** @description Write-only provider key for this agent; accepted only where the operator allows per-agent keys. Sending back its mask (or leaving it out) keeps it only while `provider` stays the same: a PATCH that changes the provider must give the key again, or `null`. */
            apiKey?: string;
            maxOutputTokens?: number;
            /** @description Tool rounds in one reply (default 5): after this many, the model is asked to answer without tools. */
            maxSteps?: number;
            name: string;
            /** @description An enabled provider. */
            provider: string;
            temperature?: number;
            topP?: number;
          };
          name: string;
          personality?: {
            style?: string[];
            tone?: string | null;
            traits?: string[];
          };
          platforms?: {
            /** @default true */
            enabled?: boolean;
            /** @description Write-only credentials. Stored encrypted; read back masked. Sending back the masked value keeps the stored secret, but only while what decides where it goes is unchanged (the server URL of mcp, openapi, images, bluesky; a2a's cardUrl and secretOrigins; http's `secretHeaders`; evm's chains and rpcUrls; a webhook's callbackUrl; the whole config of a plugin that does not say): otherwise the mask is refused (400 at the secret) and the secret must be given again. */
            secrets?: {
              [key: string]: string;
            };
            /** @description Free-form JSON settings. */
            settings?: {
              [key: string]: unknown;
            };
            /** @description e.g. telegram, discord, slack, x */
            type: string;
          }[];
          plugins?: {
            /** @description A call of one of these tools pauses the run until POST /v1/agents/{id}/approvals/{approvalId} approves or denies it. A plugin may make some of its tools wait whatever this names (the evm plugin’s evm_transfer, unless its config sets transfers.requireApproval to false); this adds to them and cannot take them away. */
            approval?: {
              /** @description How long a request waits for a decision before it expires (default 86400: 24 h; ≤ 30 days). */
              expiresAfterSeconds?: number;
              /** @description The tools (as the model knows them, e.g. fetch_url, mcp_add) that need approval, or "*": all. */
              tools: string[] | '*';
            };
            /** @description Free-form JSON settings. */
            config?: {
              [key: string]: unknown;
            };
            /** @default true */
            enabled?: boolean;
            /** @description A plugin this server offers (GET /v1/plugins): http, knowledge, clock, math, mcp. */
            name: string;
            /** @description Write-only credentials. Stored encrypted; read back masked. Sending back the masked value keeps the stored secret, but only while what decides where it goes is unchanged (the server URL of mcp, openapi, images, bluesky; a2a's cardUrl and secretOrigins; http's `secretHeaders`; evm's chains and rpcUrls; a webhook's callbackUrl; the whole config of a plugin that does not say): otherwise the mask is refused (400 at the secret) and the secret must be given again. */
            secrets?: {
              [key: string]: string;
            };
          }[];
          /**
           * @description `error` is set by the service only.
           * @enum {string}
           */
          status?: 'active' | 'inactive';
          system?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Agent'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The Idempotency-Key was used with a different body (`idempotency_key_reused`). */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Agent'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            id: string;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          bio?: (string | string[]) | null;
          deletionProtection?: boolean | null;
          expertise?: string[] | null;
          goals?: {
            motivations?: string[] | null;
            objectives?: string[] | null;
          } | null;
          knowledge?:
            | (
                | string
                | {
                    content: string;
                    title?: string;
                  }
              )[]
            | null;
          knowledgeBases?: string[] | null;
          limits?: {
            spend?: {
              costPerDay?: number | null;
              costPerMonth?: number | null;
              tokensPerDay?: number | null;
              tokensPerMonth?: number | null;
            } | null;
          } | null;
          mcp?: {
            /** @description Offer the agent as its own tool, `ask_<name>`, on the MCP server at /v1/mcp (default false). Every agent can be reached with `send_message` either way. */
            exposed: boolean;
          } | null;
          memory?: {
            budgets?: {
              factsTokens?: number | null;
              historyTokens?: number | null;
              recallTokens?: number | null;
              summaryTokens?: number | null;
            } | null;
            facts?: boolean | null;
            recall?: boolean | null;
            schedule?: {
              everyUserTurns?: number | null;
              idleSeconds?: number | null;
            } | null;
            summary?: boolean | null;
          } | null;
          metadata?: {
            [key: string]: string | null;
          } | null;
          model?: {
            apiKey?: string | null;
            maxOutputTokens?: number | null;
            maxSteps?: number | null;
            name?: string;
            /** @description An enabled provider. */
            provider?: string;
            temperature?: number | null;
            topP?: number | null;
          } | null;
          name?: string;
          personality?: {
            style?: string[] | null;
            tone?: string | null;
            traits?: string[] | null;
          } | null;
          platforms?:
            | {
                /** @default true */
                enabled?: boolean;
                /** @description Write-only credentials. Stored encrypted; read back masked. Sending back the masked value keeps the stored secret, but only while what decides where it goes is unchanged (the server URL of mcp, openapi, images, bluesky; a2a's cardUrl and secretOrigins; http's `secretHeaders`; evm's chains and rpcUrls; a webhook's callbackUrl; the whole config of a plugin that does not say): otherwise the mask is refused (400 at the secret) and the secret must be given again. */
                secrets?: {
                  [key: string]: string;
                };
                /** @description Free-form JSON settings. */
                settings?: {
                  [key: string]: unknown;
                };
                /** @description e.g. telegram, discord, slack, x */
                type: string;
              }[]
            | null;
          plugins?:
            | {
                /** @description A call of one of these tools pauses the run until POST /v1/agents/{id}/approvals/{approvalId} approves or denies it. A plugin may make some of its tools wait whatever this names (the evm plugin’s evm_transfer, unless its config sets transfers.requireApproval to false); this adds to them and cannot take them away. */
                approval?: {
                  /** @description How long a request waits for a decision before it expires (default 86400: 24 h; ≤ 30 days). */
                  expiresAfterSeconds?: number;
                  /** @description The tools (as the model knows them, e.g. fetch_url, mcp_add) that need approval, or "*": all. */
                  tools: string[] | '*';
                };
                /** @description Free-form JSON settings. */
                config?: {
                  [key: string]: unknown;
                };
                /** @default true */
                enabled?: boolean;
                /** @description A plugin this server offers (GET /v1/plugins): http, knowledge, clock, math, mcp. */
                name: string;
                /** @description Write-only credentials. Stored encrypted; read back masked. Sending back the masked value keeps the stored secret, but only while what decides where it goes is unchanged (the server URL of mcp, openapi, images, bluesky; a2a's cardUrl and secretOrigins; http's `secretHeaders`; evm's chains and rpcUrls; a webhook's callbackUrl; the whole config of a plugin that does not say): otherwise the mask is refused (400 at the secret) and the secret must be given again. */
                secrets?: {
                  [key: string]: string;
                };
              }[]
            | null;
          status?: ('active' | 'inactive') | null;
          system?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Agent'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listApprovals: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Approvals per page, 1–100 (default 20). */
        limit?: number;
        status?: 'pending' | 'approved' | 'denied' | 'expired';
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Approval'][];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getApproval: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        approvalId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Approval'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  decideApproval: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        approvalId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description `approve`: the tool runs and the model goes on; `deny`: it never runs and the model is told.
           * @enum {string}
           */
          decision: 'approve' | 'deny';
          /** @description Told to the model with the decision. */
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Approval'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listConversations: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Conversations per page, 1–100 (default 50). */
        limit?: number;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              lastActiveAt: string;
              /** @description The room of a shared conversation; null for a user. */
              roomId: string | null;
              /** @description Stored user and agent turns. 0 for a user whose turns were forgotten while the agent still keeps facts about them. */
              turns: number;
              /** @description The user of a private conversation; null for a room. */
              userId: string | null;
            }[];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  forgetConversation: {
    parameters: {
      query?: {
        /** @description Also forget what the agent remembers about the user (their facts; needs userId). The conversation's summary is always forgotten with it. */
        facts?: boolean;
        /** @description The shared conversation of this room. */
        roomId?: string;
        /** @description Alone: the private conversation with this user. With roomId: this user's turns in the room and the answers to them. */
        userId?: string;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Turns removed. */
            deleted: number;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listEvals: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Items per page, 1–100 (default 20). */
        limit?: number;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              agentId: string;
              concurrency: number;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              datasetId: string;
              /** @description The dataset as it was when the eval was created (its cases are a copy). */
              datasetName: string;
              /** @description Cases whose outcome differs between the two versions (0 with one). */
              differing: number;
              error: components['schemas']['Problem'] | null;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds, or null.
               */
              finishedAt: string | null;
              id: string;
              judge: {
                model: string;
                provider: string;
              };
              progress: {
                /** @description Results recorded so far. */
                done: number;
                /** @description Cases times versions. */
                total: number;
              };
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds, or null.
               */
              startedAt: string | null;
              /**
               * @description `queued`, `running` (on one instance; another takes it over if that one stops), then `completed`, `failed` (`error` says why) or `cancelled`.
               * @enum {string}
               */
              status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
              /** @description How many times another instance took the eval over. */
              takeovers: number;
              /** @description Per version, in the order of `versions`. */
              totals: {
                /** @description Cases of this version with a result. */
                cases: number;
                /** @description Cases whose reply could not be given (each scorer then scores 0). */
                errored: number;
                /** @description Cases answered, with a scorer that did not pass. */
                failed: number;
                /** @description Cases every scorer of which passed. */
                passed: number;
                /** @description Per scorer type, in the order of `scorerTypes`. */
                scorers: {
                  /** @description Scores given (cases with this scorer that were answered). */
                  count: number;
                  /** @description The mean score, 0–1 (0 when none was given). */
                  meanScore: number;
                  passed: number;
                  /** @enum {string} */
                  type:
                    | 'contains'
                    | 'notContains'
                    | 'regex'
                    | 'equals'
                    | 'jsonSchema'
                    | 'toolCalled'
                    | 'noToolCalled'
                    | 'finishReason'
                    | 'latencyMs'
                    | 'tokens'
                    | 'costUsd'
                    | 'rubric';
                }[];
                version: number;
              }[];
              versions: number[];
            }[];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  createEval: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Cases answered at once (default 2), never more than the agent's in-flight limit; each reply also waits for one of the agent's in-flight slots, as background messages do. */
          concurrency?: number;
          datasetId: string;
          /** @description The model that scores `rubric` scorers, called with the operator's credentials (default: the agent's own model, with its key). */
          judge?: {
            model: string;
            /** @description A provider enabled on this server (GET /v1/openai/models lists them). */
            provider: string;
          };
          /** @description One version of the agent, or two to compare (default: the agent's current version). */
          versions?: number[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            concurrency: number;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            datasetId: string;
            /** @description The dataset as it was when the eval was created (its cases are a copy). */
            datasetName: string;
            /** @description Cases whose outcome differs between the two versions (0 with one). */
            differing: number;
            error: components['schemas']['Problem'] | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds, or null.
             */
            finishedAt: string | null;
            id: string;
            judge: {
              model: string;
              provider: string;
            };
            progress: {
              /** @description Results recorded so far. */
              done: number;
              /** @description Cases times versions. */
              total: number;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds, or null.
             */
            startedAt: string | null;
            /**
             * @description `queued`, `running` (on one instance; another takes it over if that one stops), then `completed`, `failed` (`error` says why) or `cancelled`.
             * @enum {string}
             */
            status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
            /** @description How many times another instance took the eval over. */
            takeovers: number;
            /** @description Per version, in the order of `versions`. */
            totals: {
              /** @description Cases of this version with a result. */
              cases: number;
              /** @description Cases whose reply could not be given (each scorer then scores 0). */
              errored: number;
              /** @description Cases answered, with a scorer that did not pass. */
              failed: number;
              /** @description Cases every scorer of which passed. */
              passed: number;
              /** @description Per scorer type, in the order of `scorerTypes`. */
              scorers: {
                /** @description Scores given (cases with this scorer that were answered). */
                count: number;
                /** @description The mean score, 0–1 (0 when none was given). */
                meanScore: number;
                passed: number;
                /** @enum {string} */
                type:
                  | 'contains'
                  | 'notContains'
                  | 'regex'
                  | 'equals'
                  | 'jsonSchema'
                  | 'toolCalled'
                  | 'noToolCalled'
                  | 'finishReason'
                  | 'latencyMs'
                  | 'tokens'
                  | 'costUsd'
                  | 'rubric';
              }[];
              version: number;
            }[];
            versions: number[];
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getEval: {
    parameters: {
      query?: {
        /** @description The `casesPagination.nextCursor`. */
        cursor?: string;
        /** @description Only the cases whose outcome differs. */
        differsOnly?: boolean;
        /** @description Cases per page, 1–200 (default 50). */
        limit?: number;
      };
      header?: never;
      path: {
        agentId: string;
        evalId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            /** @description Cases with a result, those whose outcome differs between the versions first, then in dataset order; one page of them (`casesPagination`). */
            cases: {
              caseId: string;
              /** @description With two versions: both have a result and some scorer passed for one and not the other. */
              differs: boolean;
              /** @description The case's place in the dataset, from 0. */
              position: number;
              /** @description Per version with a result so far, in the order of `versions`. */
              results: {
                costUsd: number;
                error: components['schemas']['Problem'] | null;
                /**
                 * Format: date-time
                 * @description RFC 3339 UTC time with milliseconds.
                 */
                finishedAt: string;
                finishReason: string | null;
                latencyMs: number;
                /** @description Every scorer passed. */
                passed: boolean;
                /** @description The text of each reply, in the order of the messages. */
                replies: string[];
                /** @description The runs (trigger `eval`) of the replies: GET …/runs/{runId}. */
                runIds: string[];
                scores: {
                  passed: boolean;
                  reason: string;
                  /** @description 0–1. */
                  score: number;
                  /** @enum {string} */
                  type:
                    | 'contains'
                    | 'notContains'
                    | 'regex'
                    | 'equals'
                    | 'jsonSchema'
                    | 'toolCalled'
                    | 'noToolCalled'
                    | 'finishReason'
                    | 'latencyMs'
                    | 'tokens'
                    | 'costUsd'
                    | 'rubric';
                }[];
                /**
                 * @description `failed`: a reply could not be given (`error`); every scorer then scores 0.
                 * @enum {string}
                 */
                status: 'completed' | 'failed';
                /** @description The last reply, which the text scorers judge. */
                text: string;
                toolCalls: {
                  error?: string;
                  input: unknown;
                  name: string;
                  output?: unknown;
                  /** @description Not run: it has side effects and the case did not allow it. */
                  stubbed: boolean;
                }[];
                usage: {
                  inputTokens: number;
                  outputTokens: number;
                  totalTokens: number;
                };
                version: number;
              }[];
            }[];
            casesPagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
            concurrency: number;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            datasetId: string;
            /** @description The dataset as it was when the eval was created (its cases are a copy). */
            datasetName: string;
            /** @description Cases whose outcome differs between the two versions (0 with one). */
            differing: number;
            error: components['schemas']['Problem'] | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds, or null.
             */
            finishedAt: string | null;
            id: string;
            judge: {
              model: string;
              provider: string;
            };
            progress: {
              /** @description Results recorded so far. */
              done: number;
              /** @description Cases times versions. */
              total: number;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds, or null.
             */
            startedAt: string | null;
            /**
             * @description `queued`, `running` (on one instance; another takes it over if that one stops), then `completed`, `failed` (`error` says why) or `cancelled`.
             * @enum {string}
             */
            status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
            /** @description How many times another instance took the eval over. */
            takeovers: number;
            /** @description Per version, in the order of `versions`. */
            totals: {
              /** @description Cases of this version with a result. */
              cases: number;
              /** @description Cases whose reply could not be given (each scorer then scores 0). */
              errored: number;
              /** @description Cases answered, with a scorer that did not pass. */
              failed: number;
              /** @description Cases every scorer of which passed. */
              passed: number;
              /** @description Per scorer type, in the order of `scorerTypes`. */
              scorers: {
                /** @description Scores given (cases with this scorer that were answered). */
                count: number;
                /** @description The mean score, 0–1 (0 when none was given). */
                meanScore: number;
                passed: number;
                /** @enum {string} */
                type:
                  | 'contains'
                  | 'notContains'
                  | 'regex'
                  | 'equals'
                  | 'jsonSchema'
                  | 'toolCalled'
                  | 'noToolCalled'
                  | 'finishReason'
                  | 'latencyMs'
                  | 'tokens'
                  | 'costUsd'
                  | 'rubric';
              }[];
              version: number;
            }[];
            versions: number[];
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  cancelEval: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        evalId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            /** @description Cases with a result, those whose outcome differs between the versions first, then in dataset order; one page of them (`casesPagination`). */
            cases: {
              caseId: string;
              /** @description With two versions: both have a result and some scorer passed for one and not the other. */
              differs: boolean;
              /** @description The case's place in the dataset, from 0. */
              position: number;
              /** @description Per version with a result so far, in the order of `versions`. */
              results: {
                costUsd: number;
                error: components['schemas']['Problem'] | null;
                /**
                 * Format: date-time
                 * @description RFC 3339 UTC time with milliseconds.
                 */
                finishedAt: string;
                finishReason: string | null;
                latencyMs: number;
                /** @description Every scorer passed. */
                passed: boolean;
                /** @description The text of each reply, in the order of the messages. */
                replies: string[];
                /** @description The runs (trigger `eval`) of the replies: GET …/runs/{runId}. */
                runIds: string[];
                scores: {
                  passed: boolean;
                  reason: string;
                  /** @description 0–1. */
                  score: number;
                  /** @enum {string} */
                  type:
                    | 'contains'
                    | 'notContains'
                    | 'regex'
                    | 'equals'
                    | 'jsonSchema'
                    | 'toolCalled'
                    | 'noToolCalled'
                    | 'finishReason'
                    | 'latencyMs'
                    | 'tokens'
                    | 'costUsd'
                    | 'rubric';
                }[];
                /**
                 * @description `failed`: a reply could not be given (`error`); every scorer then scores 0.
                 * @enum {string}
                 */
                status: 'completed' | 'failed';
                /** @description The last reply, which the text scorers judge. */
                text: string;
                toolCalls: {
                  error?: string;
                  input: unknown;
                  name: string;
                  output?: unknown;
                  /** @description Not run: it has side effects and the case did not allow it. */
                  stubbed: boolean;
                }[];
                usage: {
                  inputTokens: number;
                  outputTokens: number;
                  totalTokens: number;
                };
                version: number;
              }[];
            }[];
            casesPagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
            concurrency: number;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            datasetId: string;
            /** @description The dataset as it was when the eval was created (its cases are a copy). */
            datasetName: string;
            /** @description Cases whose outcome differs between the two versions (0 with one). */
            differing: number;
            error: components['schemas']['Problem'] | null;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds, or null.
             */
            finishedAt: string | null;
            id: string;
            judge: {
              model: string;
              provider: string;
            };
            progress: {
              /** @description Results recorded so far. */
              done: number;
              /** @description Cases times versions. */
              total: number;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds, or null.
             */
            startedAt: string | null;
            /**
             * @description `queued`, `running` (on one instance; another takes it over if that one stops), then `completed`, `failed` (`error` says why) or `cancelled`.
             * @enum {string}
             */
            status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
            /** @description How many times another instance took the eval over. */
            takeovers: number;
            /** @description Per version, in the order of `versions`. */
            totals: {
              /** @description Cases of this version with a result. */
              cases: number;
              /** @description Cases whose reply could not be given (each scorer then scores 0). */
              errored: number;
              /** @description Cases answered, with a scorer that did not pass. */
              failed: number;
              /** @description Cases every scorer of which passed. */
              passed: number;
              /** @description Per scorer type, in the order of `scorerTypes`. */
              scorers: {
                /** @description Scores given (cases with this scorer that were answered). */
                count: number;
                /** @description The mean score, 0–1 (0 when none was given). */
                meanScore: number;
                passed: number;
                /** @enum {string} */
                type:
                  | 'contains'
                  | 'notContains'
                  | 'regex'
                  | 'equals'
                  | 'jsonSchema'
                  | 'toolCalled'
                  | 'noToolCalled'
                  | 'finishReason'
                  | 'latencyMs'
                  | 'tokens'
                  | 'costUsd'
                  | 'rubric';
              }[];
              version: number;
            }[];
            versions: number[];
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listAgentEvents: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Events per page, 1–100 (default 20). */
        limit?: number;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              /** @description The id of the API key that made the change, or `service`. */
              actor: string;
              agentId: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              /** @description `agent.created`: name, status. `agent.updated`: `fields` changed, with `plugins`/`platforms` entries (`entry`, `change`, `secretsChanged` names) and `model.fields`; never a secret value. `agent.status_changed`: from, to, reason, by (`owner` or `service`). `agent.deleted`: name. `agent.budget_exceeded`: a spend limit refused a message or task (once per limit and period): scope, unit, period, limit, spent, reserved, resetsAt. `connector.started`, `connector.stopped`, `connector.failed`: platform (its type), reason. `connector.received`: a social connector took a post addressed to the agent (platform, postId, userId). `connector.posted`: it posted (platform, postId, inReplyTo, part and parts of a thread, source: `reply`, `task` or `api`); never the text. `memory.updated`: userId, roomId, `summary` (true when it changed), `facts` ({ added, replaced, removed } counts), `source` (`background` or `api`); never the remembered text. `run.completed`, `run.failed`, `run.cancelled`: a run the service produced (a background message, a task) ended: runId, trigger, taskId, messageId, and for a failed one the problem `code`; `run.waiting`: such a run paused for approvals. `task.paused`: taskId, name, reason, consecutiveFailures. `tool.transfer`: the `evm` plugin sent a transfer: chain, chainId, from, to, asset (`native` or the token's symbol), tokenAddress, amount ({ baseUnits, formatted }), hash; never the key. */
              data: {
                [key: string]: unknown;
              };
              id: string;
              /** @description The request that made the change. */
              requestId: string | null;
              /**
               * @description What happened; more types (e.g. `connector.*`) may be added, so ignore those you do not know.
               * @enum {string}
               */
              type:
                | 'agent.created'
                | 'agent.updated'
                | 'agent.status_changed'
                | 'agent.budget_exceeded'
                | 'agent.deleted'
                | 'connector.started'
                | 'connector.stopped'
                | 'connector.failed'
                | 'connector.received'
                | 'connector.posted'
                | 'memory.updated'
                | 'run.completed'
                | 'run.failed'
                | 'run.cancelled'
                | 'run.waiting'
                | 'task.paused'
                | 'tool.transfer';
            }[];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  exportAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            adjectives: string[];
            bio: string[];
            clients: string[];
            knowledge: string[];
            name: string;
            plugins: string[];
            settings: {
              agentd: {
                [key: string]: unknown;
              };
              secrets: {
                [key: string]: '';
              };
            };
            style: {
              all: string[];
            };
            system?: string;
            topics: string[];
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getMemory: {
    parameters: {
      query?: {
        /** @description The room's conversation (its summary). */
        roomId?: string;
        /** @description Alone: the private conversation with this user, and the user's facts. With roomId: the user's facts. */
        userId?: string;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            /** @description The user's facts (empty without userId). */
            facts: {
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              id: string;
              /** @description The turn the fact was extracted from; null when written through this API. */
              sourceMessageId: string | null;
              statement: string;
              /** @description What the fact is about (`name`, `location`, …): one fact per subject. */
              subject: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              updatedAt: string;
              userId: string;
            }[];
            roomId: string | null;
            /** @description The newest turn folded into the summary. */
            summarizedThrough: string | null;
            /** @description The rolling summary of the conversation, or null. */
            summary: string | null;
            userId: string | null;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateMemory: {
    parameters: {
      query?: {
        /** @description The room's conversation (its summary). */
        roomId?: string;
        /** @description Alone: the private conversation with this user, and the user's facts. With roomId: the user's facts. */
        userId?: string;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Edits of the user’s facts (needs userId), applied in order: `{id, statement}` rewrites a fact, `{id, delete: true}` forgets it (a fact already gone is no error), `{subject, statement}` sets the fact on that subject. */
          facts?: (
            | {
                id: string;
                statement: string;
              }
            | {
                /** @enum {boolean} */
                delete: true;
                id: string;
              }
            | {
                statement: string;
                /** @description Lower-case words, e.g. `name`, `location`, `preference:units`. */
                subject: string;
              }
          )[];
          /** @description Replaces the summary; null or "" clears it. */
          summary?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            /** @description The user's facts (empty without userId). */
            facts: {
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              id: string;
              /** @description The turn the fact was extracted from; null when written through this API. */
              sourceMessageId: string | null;
              statement: string;
              /** @description What the fact is about (`name`, `location`, …): one fact per subject. */
              subject: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              updatedAt: string;
              userId: string;
            }[];
            roomId: string | null;
            /** @description The newest turn folded into the summary. */
            summarizedThrough: string | null;
            /** @description The rolling summary of the conversation, or null. */
            summary: string | null;
            userId: string | null;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listMessages: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Turns per page, 1–100 (default 20). */
        limit?: number;
        /** @description The shared conversation of this room. */
        roomId?: string;
        /** @description Alone: the private conversation with this user. With roomId: this user's turns in the room and the answers to them. */
        userId?: string;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              agentId: string;
              /** @description Images of the turn: those sent with a message, or those an answer produced. */
              attachments?: components['schemas']['Attachment'][];
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              /**
               * @description `stop` (complete), `length` (maxOutputTokens reached), `aborted` (the client went away), `error` (the provider failed mid-answer), `approval_required` (the model called a tool that waits for a person: see `approvals`), or another reason the provider gave.
               * @enum {string}
               */
              finishReason?:
                | 'stop'
                | 'length'
                | 'content-filter'
                | 'tool-calls'
                | 'error'
                | 'other'
                | 'aborted'
                | 'approval_required';
              id: string;
              /**
               * @description `tool` turns are the tools the agent ran, between a message and its answer.
               * @enum {string}
               */
              role: 'user' | 'agent' | 'tool';
              roomId: string | null;
              /** @description Empty on tool turns. */
              text: string;
              tool?: components['schemas']['ToolCall'];
              userId: string | null;
            }[];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  sendMessage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Images sent with the message (at most 4, each at most 5 MiB by default: AGENTD_MAX_IMAGE_BYTES), png, jpeg, webp or gif as their bytes say. A vision model sees them as image parts; the builtin model says what it can tell offline (type and pixel size). Stored with the turn (when the message belongs to a conversation) and served at /v1/files/{fileId}. Bad bytes, an unsupported type or a refused URL → 400; too large → 413; nothing is stored then. */
          attachments?: {
            /** @description The image itself, base64 (a `data:image/…;base64,` URL is accepted too); or give `url`. */
            data?: string;
            /**
             * @description png, jpeg, webp or gif; always checked against the bytes themselves (their magic numbers).
             * @enum {string}
             */
            mediaType?: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
            /** @enum {string} */
            type: 'image';
            /** @description An http(s) URL of the image, fetched by agentd from a public address (private and loopback addresses are refused); or give `data`. */
            url?: string;
          }[];
          /** @description Produce the reply in the service, not on this connection (default false): answered 202 with the run at once, or with `stream: true` as the run’s event stream, which the client may leave and resume (GET …/runs/{runId}/events) without stopping the reply. */
          background?: boolean;
          /** @description A JSON object given to the model with this message only (at most 16 KiB as JSON); not stored. */
          context?: {
            [key: string]: unknown;
          };
          /** @description A shared conversation: everyone in the room shares its history, each turn labelled with its userId. */
          roomId?: string;
          /** @description Answer as a text/event-stream (default false). */
          stream?: boolean;
          /** @description The message, 1–32,000 characters. */
          text: string;
          /** @description Who is speaking. Alone: a private conversation with this user, remembered across messages. */
          userId?: string;
        };
      };
    };
    responses: {
      /** @description The reply (JSON), or with `stream: true` an event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MessageReply'];
          'text/event-stream': string;
        };
      };
      /** @description With `background: true` (and no `stream`): the run, queued; `Location` is its URL. Follow it with GET …/runs/{runId} or its events with GET …/runs/{runId}/events. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Run'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getAgentMetrics: {
    parameters: {
      query?: {
        /** @description Start of the range (default: 24 hours before `to`), rounded down to the interval. */
        from?: string;
        /** @description Bucket size (default `hour`). */
        interval?: 'minute' | 'hour' | 'day';
        /** @description End of the range (default: now): the buckets that start before it are given, whole. */
        to?: string;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            buckets: {
              /** @description Of `inputTokens`, those the provider read from its prompt cache (billed lower; README, "Prompt caching"). 0 where the provider reports none (builtin, most OpenAI-compatible servers). */
              cachedInputTokens: number;
              /** @description Messages refused 429 `concurrency_limited` (messages in flight per agent, open streams per account). */
              concurrencyRejected: number;
              /** @description What the replies cost in US dollars (to the micro-dollar), each priced when it was made from the price table: the dated defaults for OpenAI and Anthropic models, free for `builtin` and `ollama`, and AGENTD_MODEL_PRICES (README, "Model prices"). Messages whose model has no price count 0 here and are counted in `unpricedMessages`. */
              costUsd: number;
              /** @description Of `messages`, those that ended with an error. */
              failedMessages: number;
              /** @description `failedMessages` by cause, types with a count only: `provider_error` (unreachable, 5xx, broke off), `provider_rejected` (another 4xx), `timeout`, `circuit_open`, `credentials`, `model_not_found`, `internal`. More types may be added. */
              failuresByType: {
                circuit_open?: number;
                credentials?: number;
                internal?: number;
                model_not_found?: number;
                provider_error?: number;
                provider_rejected?: number;
                timeout?: number;
              };
              /** @description Images sent with messages (`attachments`) that reached the agent. */
              imagesIn: number;
              /** @description Images replies produced (made by a tool such as generate_image). */
              imagesOut: number;
              /** @description Input tokens the provider reported (summed over tool rounds). */
              inputTokens: number;
              /** @description Request to reply complete, of completed replies. Milliseconds, from a fixed-bucket histogram: the value reported is the upper bound of the bucket that holds the percentile (bounds 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500, 2500, 4000, 6000, 10000, 15000, 25000, 40000, 60000, 100000, 150000, 300000 ms), so it is never below the true value and at most one bucket (about ×1.6) above it; above 300000 ms it reads 300000. Null when there was no sample. */
              latencyMs: {
                p50: number | null;
                p95: number | null;
                p99: number | null;
              };
              /** @description Long-term memory updates: a summary or facts changed (in the background after exchanges, through the memory API, or by forgetting a conversation); each is a `memory.updated` event. */
              memoryUpdates: number;
              /** @description Messages accepted (past the rate and concurrency limits), streamed or not, whatever their outcome. */
              messages: number;
              /** @description Output tokens the provider reported. */
              outputTokens: number;
              /** @description Messages refused 429 `rate_limited` (the per-agent message rate). */
              rateLimited: number;
              /** @description `messages` by who started the run each reply is: `message` (POST …/messages, background or not), `task`, `platform`, `door` (the OpenAI-compatible endpoint). */
              runsByTrigger: {
                a2a: number;
                approval: number;
                door: number;
                eval: number;
                mcp: number;
                message: number;
                platform: number;
                task: number;
              };
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              start: string;
              /** @description Of `messages`, those with `stream: true`. */
              streamedMessages: number;
              /** @description Request to the first text of streamed replies. Milliseconds, from a fixed-bucket histogram: the value reported is the upper bound of the bucket that holds the percentile (bounds 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500, 2500, 4000, 6000, 10000, 15000, 25000, 40000, 60000, 100000, 150000, 300000 ms), so it is never below the true value and at most one bucket (about ×1.6) above it; above 300000 ms it reads 300000. Null when there was no sample. */
              timeToFirstTokenMs: {
                p50: number | null;
                p95: number | null;
              };
              /** @description Tool calls the replies made. */
              toolCalls: number;
              /** @description Of `messages`, those whose model has no price (e.g. an openai-compatible model not in AGENTD_MODEL_PRICES): their cost is not in `costUsd`. Above 0, `costUsd` is understated. */
              unpricedMessages: number;
            }[];
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            from: string;
            /** @enum {string} */
            interval: 'minute' | 'hour' | 'day';
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            to: string;
            /** MetricTotals */
            totals: {
              /** @description Of `inputTokens`, those the provider read from its prompt cache (billed lower; README, "Prompt caching"). 0 where the provider reports none (builtin, most OpenAI-compatible servers). */
              cachedInputTokens: number;
              /** @description Messages refused 429 `concurrency_limited` (messages in flight per agent, open streams per account). */
              concurrencyRejected: number;
              /** @description What the replies cost in US dollars (to the micro-dollar), each priced when it was made from the price table: the dated defaults for OpenAI and Anthropic models, free for `builtin` and `ollama`, and AGENTD_MODEL_PRICES (README, "Model prices"). Messages whose model has no price count 0 here and are counted in `unpricedMessages`. */
              costUsd: number;
              /** @description Of `messages`, those that ended with an error. */
              failedMessages: number;
              /** @description `failedMessages` by cause, types with a count only: `provider_error` (unreachable, 5xx, broke off), `provider_rejected` (another 4xx), `timeout`, `circuit_open`, `credentials`, `model_not_found`, `internal`. More types may be added. */
              failuresByType: {
                circuit_open?: number;
                credentials?: number;
                internal?: number;
                model_not_found?: number;
                provider_error?: number;
                provider_rejected?: number;
                timeout?: number;
              };
              /** @description Images sent with messages (`attachments`) that reached the agent. */
              imagesIn: number;
              /** @description Images replies produced (made by a tool such as generate_image). */
              imagesOut: number;
              /** @description Input tokens the provider reported (summed over tool rounds). */
              inputTokens: number;
              /** @description Request to reply complete, of completed replies. Milliseconds, from a fixed-bucket histogram: the value reported is the upper bound of the bucket that holds the percentile (bounds 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500, 2500, 4000, 6000, 10000, 15000, 25000, 40000, 60000, 100000, 150000, 300000 ms), so it is never below the true value and at most one bucket (about ×1.6) above it; above 300000 ms it reads 300000. Null when there was no sample. */
              latencyMs: {
                p50: number | null;
                p95: number | null;
                p99: number | null;
              };
              /** @description Long-term memory updates: a summary or facts changed (in the background after exchanges, through the memory API, or by forgetting a conversation); each is a `memory.updated` event. */
              memoryUpdates: number;
              /** @description Messages accepted (past the rate and concurrency limits), streamed or not, whatever their outcome. */
              messages: number;
              /** @description Output tokens the provider reported. */
              outputTokens: number;
              /** @description Messages refused 429 `rate_limited` (the per-agent message rate). */
              rateLimited: number;
              /** @description `messages` by who started the run each reply is: `message` (POST …/messages, background or not), `task`, `platform`, `door` (the OpenAI-compatible endpoint). */
              runsByTrigger: {
                a2a: number;
                approval: number;
                door: number;
                eval: number;
                mcp: number;
                message: number;
                platform: number;
                task: number;
              };
              /** @description Of `messages`, those with `stream: true`. */
              streamedMessages: number;
              /** @description Request to the first text of streamed replies. Milliseconds, from a fixed-bucket histogram: the value reported is the upper bound of the bucket that holds the percentile (bounds 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500, 2500, 4000, 6000, 10000, 15000, 25000, 40000, 60000, 100000, 150000, 300000 ms), so it is never below the true value and at most one bucket (about ×1.6) above it; above 300000 ms it reads 300000. Null when there was no sample. */
              timeToFirstTokenMs: {
                p50: number | null;
                p95: number | null;
              };
              /** @description Tool calls the replies made. */
              toolCalls: number;
              /** @description Of `messages`, those whose model has no price (e.g. an openai-compatible model not in AGENTD_MODEL_PRICES): their cost is not in `costUsd`. Above 0, `costUsd` is understated. */
              unpricedMessages: number;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listAgentPlatforms: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              enabled: boolean;
              /** @description An opaque id of the instance running it, for connectors that run on one instance at a time. */
              instance: string | null;
              /**
               * Format: date-time
               * @description When the connector last received or handled an event.
               */
              lastEventAt: string | null;
              /**
               * @deprecated
               * @description Deprecated: the former name of `statusReason`, with the same value.
               */
              reason: string | null;
              /**
               * @deprecated
               * @description Deprecated: the former name of `status`, with the same value.
               * @enum {string}
               */
              state: 'running' | 'stopped' | 'error' | 'unsupported';
              /**
               * @description `running`: connected; `stopped`: not running (agent not active, platform disabled, or starting); `error`: failing, see `statusReason`; `unsupported`: a type this server does not run (stored only).
               * @enum {string}
               */
              status: 'running' | 'stopped' | 'error' | 'unsupported';
              /** @description Why it is stopped or failing; never a secret. */
              statusReason: string | null;
              type: string;
            }[];
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  postPlatformText: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        /** @description One of the agent's platforms. */
        type: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description Where: a Telegram chat id (or `@channel`), a Slack or Discord channel id; on X and Bluesky `timeline` (a post of its own) or the post to reply to (an X post id, a Bluesky at:// post URI).
           * @example timeline
           */
          target: string;
          /** @description What to post, 1–32,000 characters; split as the platform requires (a numbered thread on X and Bluesky, several messages on Telegram and Discord). */
          text: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            platform: string;
            /**
             * Format: date-time
             * @description When the platform took the post.
             */
            postedAt: string;
            target: string;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listRuns: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Runs per page, 1–100 (default 20). */
        limit?: number;
        status?: 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled' | 'skipped';
        /** @description Deprecated: the former name of `taskId`, still read. Sent with `taskId`, it must be equal. */
        task?: string;
        /** @description Only the runs of this task (the `taskId` of a run). */
        taskId?: string;
        trigger?: 'message' | 'task' | 'platform' | 'door' | 'mcp' | 'a2a' | 'approval' | 'eval';
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Run'][];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Run'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  cancelRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Run'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  streamRunEvents: {
    parameters: {
      query?: {
        /** @description The same as `Last-Event-ID`, for clients that cannot set headers (the header wins). */
        after?: number;
      };
      header?: {
        /** @description The `id` of the last event received: the stream resumes after it. */
        'last-event-id'?: string;
      };
      path: {
        agentId: string;
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description An event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listRunSteps: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentVersion: number | null;
            /** @description The model's context window in tokens, as agentd knows it (what the sections are measured against). */
            contextTokens: number | null;
            data: components['schemas']['RunStep'][];
            runId: string;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getRunStepPrompt: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        /** @description The step's `index` in the run's steps. */
        index: number;
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RunStepPrompt'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listTasks: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Tasks per page, 1–100 (20). */
        limit?: number;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Task'][];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  createTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default true */
          enabled?: boolean;
          /** @description What the agent is asked to do at each due time: the run's message (the agent's goals are in its prompt). */
          instructions: string;
          name: string;
          /** @description Where the reply goes besides the run: nowhere else, a platform target, or webhooks. */
          output?:
            | {
                /** @enum {string} */
                type: 'none';
              }
            | {
                /**
                 * @description One of the agent's platforms.
                 * @enum {string}
                 */
                platform: 'telegram' | 'slack' | 'discord' | 'x' | 'bluesky';
                /** @description Where the reply is posted: a Telegram chat id (or `@channel`), a Slack channel id (`<channel>/<thread ts>` for a thread) or a Discord channel id; for X and Bluesky `timeline` (a post of its own) or the post to reply to (an X post id, a Bluesky at:// URI). */
                target: string;
                /** @enum {string} */
                type: 'platform';
              }
            | {
                /** @enum {string} */
                type: 'webhook';
              };
          /** @description When the task is due: `{ cron, timezone }`, `{ everySeconds }` or `{ at }` (once). */
          schedule:
            | {
                /**
                 * @description A five-field cron expression (minute hour day-of-month month day-of-week), e.g. `0 8 * * 1-5`, or a nickname such as `@daily`.
                 * @example 0 8 * * 1-5
                 * @example @daily
                 */
                cron: string;
                /**
                 * @description The IANA time zone the expression is read in (default `UTC`), e.g. `Europe/Berlin`. Across a DST change a time that does not exist runs at the first minute after it, a time that happens twice runs once.
                 * @default UTC
                 * @example Europe/Berlin
                 * @example UTC
                 */
                timezone?: string;
              }
            | {
                /**
                 * @description Seconds between due times, counted from when the schedule was set; at least 60 unless the operator lowered AGENTD_TASK_MIN_INTERVAL_SECONDS.
                 * @example 3600
                 */
                everySeconds: number;
              }
            | {
                /**
                 * @description One due time, RFC 3339 with an offset (e.g. `2030-01-31T08:00:00+01:00`); a past time runs now.
                 * @example 2030-01-31T08:00:00+01:00
                 */
                at: string;
              };
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Task'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        taskId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Task'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        taskId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            id: string;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        taskId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description true resumes a paused task (its failures are forgotten); false pauses it. */
          enabled?: boolean;
          /** @description What the agent is asked to do at each due time: the run's message (the agent's goals are in its prompt). */
          instructions?: string;
          name?: string;
          /** @description Where the reply goes besides the run: nowhere else, a platform target, or webhooks. */
          output?:
            | {
                /** @enum {string} */
                type: 'none';
              }
            | {
                /**
                 * @description One of the agent's platforms.
                 * @enum {string}
                 */
                platform: 'telegram' | 'slack' | 'discord' | 'x' | 'bluesky';
                /** @description Where the reply is posted: a Telegram chat id (or `@channel`), a Slack channel id (`<channel>/<thread ts>` for a thread) or a Discord channel id; for X and Bluesky `timeline` (a post of its own) or the post to reply to (an X post id, a Bluesky at:// URI). */
                target: string;
                /** @enum {string} */
                type: 'platform';
              }
            | {
                /** @enum {string} */
                type: 'webhook';
              };
          /** @description When the task is due: `{ cron, timezone }`, `{ everySeconds }` or `{ at }` (once). */
          schedule?:
            | {
                /**
                 * @description A five-field cron expression (minute hour day-of-month month day-of-week), e.g. `0 8 * * 1-5`, or a nickname such as `@daily`.
                 * @example 0 8 * * 1-5
                 * @example @daily
                 */
                cron: string;
                /**
                 * @description The IANA time zone the expression is read in (default `UTC`), e.g. `Europe/Berlin`. Across a DST change a time that does not exist runs at the first minute after it, a time that happens twice runs once.
                 * @default UTC
                 * @example Europe/Berlin
                 * @example UTC
                 */
                timezone?: string;
              }
            | {
                /**
                 * @description Seconds between due times, counted from when the schedule was set; at least 60 unless the operator lowered AGENTD_TASK_MIN_INTERVAL_SECONDS.
                 * @example 3600
                 */
                everySeconds: number;
              }
            | {
                /**
                 * @description One due time, RFC 3339 with an offset (e.g. `2030-01-31T08:00:00+01:00`); a past time runs now.
                 * @example 2030-01-31T08:00:00+01:00
                 */
                at: string;
              };
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Task'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  runTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        taskId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Run'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listAgentVersions: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Versions per page, 1–100 (default 20). */
        limit?: number;
      };
      header?: never;
      path: {
        agentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              agentId: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              /** @description Top-level fields that differ from the version before (empty for the first). */
              fields: string[];
              /** @description The API key that made this version; null for one recorded when versions began to be kept. */
              keyId: string | null;
              /** @description For a restore: the version it restored. */
              restoredFrom: number | null;
              /**
               * @description `create`, `import` (a character file), `update` (PATCH), `restore` (see `restoredFrom`), `detach` (a knowledge base the agent used was deleted), `existing` (the configuration the agent had when versions began to be kept).
               * @enum {string}
               */
              source: 'create' | 'import' | 'update' | 'restore' | 'detach' | 'existing';
              /** @description Numbered per agent from 1; the agent’s `version` is its latest. */
              version: number;
            }[];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getAgentVersion: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        version: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            /**
             * AgentConfiguration
             * @description What the agent was configured with at this version: the fields of the agent but `id`, `status`, `statusReason`, `version`, `createdAt` and `updatedAt`. Secrets are masked, as on the agent; a version never holds a secret, only a reference to the one the agent held.
             */
            configuration: {
              bio: string[];
              deletionProtection: boolean;
              expertise: string[];
              goals: {
                motivations: string[];
                objectives: string[];
              };
              knowledge: (
                | string
                | {
                    content: string;
                    title?: string;
                  }
              )[];
              knowledgeBases: string[];
              limits: {
                spend: {
                  costPerDay: number | null;
                  costPerMonth: number | null;
                  tokensPerDay: number | null;
                  tokensPerMonth: number | null;
                };
              };
              mcp: {
                /** @description Offer the agent as its own tool, `ask_<name>`, on the MCP server at /v1/mcp (default false). Every agent can be reached with `send_message` either way. */
                exposed: boolean;
              };
              memory: {
                budgets: {
                  factsTokens: number;
                  historyTokens: number | null;
                  recallTokens: number;
                  summaryTokens: number;
                };
                facts: boolean;
                recall: boolean;
                schedule: {
                  everyUserTurns: number;
                  idleSeconds: number;
                };
                summary: boolean;
              };
              metadata: {
                [key: string]: string;
              };
              model: {
                /** @description Masked. */
                apiKey?: string;
                maxOutputTokens?: number;
                maxSteps?: number;
                name: string;
                provider: string;
                temperature?: number;
                topP?: number;
              };
              name: string;
              personality: {
                style: string[];
                tone: string | null;
                traits: string[];
              };
              platforms: {
                enabled: boolean;
                /** @description Masked: "••••" and the last four characters (only "••••" for secrets under 12 characters). */
                secrets: {
                  [key: string]: string;
                };
                /** @description Free-form JSON settings. */
                settings: {
                  [key: string]: unknown;
                };
                type: string;
              }[];
              plugins: {
                /** @description A call of one of these tools pauses the run until POST /v1/agents/{id}/approvals/{approvalId} approves or denies it. A plugin may make some of its tools wait whatever this names (the evm plugin’s evm_transfer, unless its config sets transfers.requireApproval to false); this adds to them and cannot take them away. */
                approval?: {
                  /** @description How long a request waits for a decision before it expires (default 86400: 24 h; ≤ 30 days). */
                  expiresAfterSeconds?: number;
                  /** @description The tools (as the model knows them, e.g. fetch_url, mcp_add) that need approval, or "*": all. */
                  tools: string[] | '*';
                };
                /** @description Free-form JSON settings. */
                config: {
                  [key: string]: unknown;
                };
                enabled: boolean;
                name: string;
                /** @description Masked: "••••" and the last four characters (only "••••" for secrets under 12 characters). */
                secrets: {
                  [key: string]: string;
                };
              }[];
              system: string | null;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            /** @description Top-level fields that differ from the version before (empty for the first). */
            fields: string[];
            /** @description The API key that made this version; null for one recorded when versions began to be kept. */
            keyId: string | null;
            /** @description For a restore: the version it restored. */
            restoredFrom: number | null;
            /**
             * @description `create`, `import` (a character file), `update` (PATCH), `restore` (see `restoredFrom`), `detach` (a knowledge base the agent used was deleted), `existing` (the configuration the agent had when versions began to be kept).
             * @enum {string}
             */
            source: 'create' | 'import' | 'update' | 'restore' | 'detach' | 'existing';
            /** @description Numbered per agent from 1; the agent’s `version` is its latest. */
            version: number;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  diffAgentVersions: {
    parameters: {
      query?: {
        /** @description The version to compare with (default: the one before; for version 1, an empty configuration). */
        from?: number;
      };
      header?: never;
      path: {
        agentId: string;
        version: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agentId: string;
            /** @enum {string} */
            format: 'json-patch';
            /** @description The version compared with; null: an empty configuration. */
            from: number | null;
            /** @description A JSON Patch (RFC 6902) that turns the `from` configuration into the `to` one; empty when they are equal. A secret replaced by one with the same mask shows as no change here; `fields` of the version names it. */
            operations: {
              /** @enum {string} */
              op: 'add' | 'remove' | 'replace';
              /** @description JSON Pointer (RFC 6901) into the configuration. */
              path: string;
              /** @description For `add` and `replace`: the new value (secrets masked). */
              value?: unknown;
            }[];
            to: number;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  restoreAgentVersion: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        version: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Agent'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  importAgent: {
    parameters: {
      query?: never;
      header?: {
        /** @description Printable ASCII, 1–255 characters. */
        'idempotency-key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description An ElizaOS character file (1.x, and the 0.x fields lore, clients, modelProvider, settings.model). */
    requestBody: {
      content: {
        'application/json': {
          adjectives?: string[];
          bio?: string | string[];
          clients?: string[];
          id?: string;
          knowledge?: (
            | string
            | {
                path: string;
                shared?: boolean;
              }
            | {
                directory: string;
                shared?: boolean;
              }
          )[];
          lore?: string[];
          messageExamples?: unknown[];
          modelProvider?: string;
          name: string;
          plugins?: string[];
          postExamples?: unknown[];
          /** @description Credentials by environment variable name, e.g. `DISCORD_API_TOKEN`. */
          secrets?: {
            [key: string]: string | number | boolean;
          };
          settings?: {
            /** AgentdCharacterExtension */
            agentd?: {
              /** @description A string or a list of strings; read back as a list. */
              bio?: string | string[];
              deletionProtection?: boolean;
              expertise?: string[];
              goals?: {
                motivations?: string[];
                objectives?: string[];
              };
              /** @description Up to 100 items and 1 MiB of text in all. The most relevant items are retrieved for each message. */
              knowledge?: (
                | string
                | {
                    content: string;
                    title?: string;
                  }
              )[];
              /** @description Knowledge bases of this account (kb_…) the agent retrieves from for every message, cited in replies' `citations`. At most 20. */
              knowledgeBases?: string[];
              limits?: {
                spend?: {
                  costPerDay?: number | null;
                  costPerMonth?: number | null;
                  tokensPerDay?: number | null;
                  tokensPerMonth?: number | null;
                } | null;
              };
              mcp?: {
                /** @description Offer the agent as its own tool, `ask_<name>`, on the MCP server at /v1/mcp (default false). Every agent can be reached with `send_message` either way. */
                exposed: boolean;
              };
              /** @description Long-term memory: what the agent keeps beyond its context window, and the prompt share of each. */
              memory?: {
                budgets?: {
                  /** @description Tokens the prompt gives facts at most (default 300). */
                  factsTokens?: number;
                  historyTokens?: number | null;
                  /** @description Tokens the prompt gives recalled turns at most (default 400). */
                  recallTokens?: number;
                  /** @description Tokens the prompt gives the summary at most (default 400). */
                  summaryTokens?: number;
                };
                /** @description Extract facts about each user (batched, see schedule) and carry those of the users present (default true). */
                facts?: boolean;
                /** @description Carry the earlier turns most relevant to the message, from outside the window (default true). */
                recall?: boolean;
                /** @description When memory work (and its model calls) runs: in batches, not after every exchange. */
                schedule?: {
                  /** @description Facts are extracted once this many user turns that say something wait, in one model call (default 8; 1: after every exchange). Turns about to leave the window are processed first whatever the count; greetings and thanks alone cost no call. */
                  everyUserTurns?: number;
                  /** @description Turns still waiting are processed once the conversation has had no message for this long (default 600). */
                  idleSeconds?: number;
                };
                /** @description Fold turns that leave the window into a rolling summary carried by the prompt (default true). */
                summary?: boolean;
              };
              /** @description Up to 50 string keys with string values of at most 500 characters. */
              metadata?: {
                [key: string]: string;
              };
              model?: {
                /** @description Write-only provider key for this agent; accepted only where the operator allows per-agent keys. Sending back its mask (or leaving it out) keeps it only while `provider` stays the same: a PATCH that changes the provider must give the key again, or `null`. */
                apiKey?: string;
                maxOutputTokens?: number;
                /** @description Tool rounds in one reply (default 5): after this many, the model is asked to answer without tools. */
                maxSteps?: number;
                name: string;
                /** @description An enabled provider. */
                provider: string;
                temperature?: number;
                topP?: number;
              };
              personality?: {
                style?: string[];
                tone?: string | null;
                traits?: string[];
              };
              platforms?: {
                /** @default true */
                enabled?: boolean;
                /** @description Write-only credentials. Stored encrypted; read back masked. Sending back the masked value keeps the stored secret, but only while what decides where it goes is unchanged (the server URL of mcp, openapi, images, bluesky; a2a's cardUrl and secretOrigins; http's `secretHeaders`; evm's chains and rpcUrls; a webhook's callbackUrl; the whole config of a plugin that does not say): otherwise the mask is refused (400 at the secret) and the secret must be given again. */
                secrets?: {
                  [key: string]: string;
                };
                /** @description Free-form JSON settings. */
                settings?: {
                  [key: string]: unknown;
                };
                /** @description e.g. telegram, discord, slack, x */
                type: string;
              }[];
              plugins?: {
                /** @description A call of one of these tools pauses the run until POST /v1/agents/{id}/approvals/{approvalId} approves or denies it. A plugin may make some of its tools wait whatever this names (the evm plugin’s evm_transfer, unless its config sets transfers.requireApproval to false); this adds to them and cannot take them away. */
                approval?: {
                  /** @description How long a request waits for a decision before it expires (default 86400: 24 h; ≤ 30 days). */
                  expiresAfterSeconds?: number;
                  /** @description The tools (as the model knows them, e.g. fetch_url, mcp_add) that need approval, or "*": all. */
                  tools: string[] | '*';
                };
                /** @description Free-form JSON settings. */
                config?: {
                  [key: string]: unknown;
                };
                /** @default true */
                enabled?: boolean;
                /** @description A plugin this server offers (GET /v1/plugins): http, knowledge, clock, math, mcp. */
                name: string;
                /** @description Write-only credentials. Stored encrypted; read back masked. Sending back the masked value keeps the stored secret, but only while what decides where it goes is unchanged (the server URL of mcp, openapi, images, bluesky; a2a's cardUrl and secretOrigins; http's `secretHeaders`; evm's chains and rpcUrls; a webhook's callbackUrl; the whole config of a plugin that does not say): otherwise the mask is refused (400 at the secret) and the secret must be given again. */
                secrets?: {
                  [key: string]: string;
                };
              }[];
              /**
               * @description `error` is set by the service only.
               * @enum {string}
               */
              status?: 'active' | 'inactive';
              system?: string | null;
            };
            model?: string;
            modelConfig?: {
              maxOutputTokens?: number;
              temperature?: number;
            };
            /** @description Credentials by environment variable name, e.g. `DISCORD_API_TOKEN`. */
            secrets?: {
              [key: string]: string | number | boolean;
            };
          };
          style?: {
            all?: string[];
            chat?: string[];
            post?: string[];
          };
          system?: string;
          templates?: {
            [key: string]: unknown;
          };
          topics?: string[];
          username?: string;
        } & {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agent: components['schemas']['Agent'];
            report: {
              /** @description Character fields that became part of the agent. */
              mapped: string[];
              /** @description Character fields left out, and why. Secrets are named, never shown. */
              unmapped: {
                field: string;
                reason: string;
              }[];
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A request with the same Idempotency-Key is still running (`idempotency_in_progress`), or the resource is in a state that does not allow the operation (`conflict`). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The Idempotency-Key was used with a different body (`idempotency_key_reused`). */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listApiKeys: {
    parameters: {
      query?: {
        /** @description `revoked` lists revoked keys too (with `revokedAt`). */
        include?: 'revoked';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              id: string;
              /** @description When the key last authenticated a request, to the minute; null if never. */
              lastUsedAt: string | null;
              name: string | null;
              /** @description The first characters of the key, to recognise it. */
              prefix: string;
              /** @description When the key was revoked; null while it works. Listed only with `include=revoked`. */
              revokedAt: string | null;
              scopes: string[];
            }[];
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          /** @description Default: the scopes of the key making the request. A key can only grant scopes it holds. */
          scopes?: (
            'agents:read' | 'agents:write' | 'agents:delete' | 'messages:send' | 'keys:manage' | 'approvals:write'
          )[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            id: string;
            /** @description The key itself. Shown only in this response. */
            key: string;
            name: string | null;
            /** @description The first characters of the key, to recognise it. */
            prefix: string;
            scopes: string[];
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            /** @enum {boolean} */
            revoked: true;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listAccountApprovals: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Approvals per page, 1–100 (default 20). */
        limit?: number;
        status?: 'pending' | 'approved' | 'denied' | 'expired';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Approval'][];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  createChatCompletion: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Honoured: `model`, `messages` (see there), `stream`, `stream_options.include_usage`, `user`, `temperature`, `max_tokens` / `max_completion_tokens` (these two override the agent’s own settings for this reply). Accepted and ignored: every other field (`n`, `top_p`, `stop`, `tools`, `tool_choice`, `response_format`, `seed`, …); the agent’s own plugins are its tools, and they run inside agentd. */
    requestBody: {
      content: {
        'application/json': {
          max_completion_tokens?: number | null;
          max_tokens?: number | null;
          /** @description The last message must be a `user` message: it is what the agent is told. `system` and `developer` messages are given to the model as context with this message only. Earlier `user`, `assistant` and `tool` messages are not used: the agent keeps its own memory of the conversation with `user`. */
          messages: ({
            content?:
              | string
              | ({
                  image_url?: {
                    url: string;
                  } & {
                    [key: string]: unknown;
                  };
                  text?: string;
                  /** @description `text` parts, and in the last user message `image_url` parts (at most 4: a `data:` URL or a public http(s) URL, sent to the agent as `attachments`); any other part is a 400. */
                  type: string;
                } & {
                  [key: string]: unknown;
                })[]
              | null;
            /** @enum {string} */
            role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
          } & {
            [key: string]: unknown;
          })[];
          /** @description The agent: its id (`agt_…`), or `agent:<name>` when exactly one agent of the account has that name. */
          model: string;
          stream?: boolean | null;
          stream_options?:
            | ({
                include_usage?: boolean;
              } & {
                [key: string]: unknown;
              })
            | null;
          temperature?: number | null;
          /** @description Becomes the message's `userId`: the agent remembers its private conversation with this user. */
          user?: string;
        } & {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description The completion (JSON), or with `stream: true` an event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            choices: {
              /** @enum {string} */
              finish_reason: 'stop' | 'length' | 'content_filter';
              index: number;
              logprobs: null;
              message: {
                /** @description The reply text; when the reply produced images (a tool such as generate_image made them), content parts instead: the text, then one `image_url` part per image. */
                content:
                  | string
                  | (
                      | {
                          text: string;
                          /** @enum {string} */
                          type: 'text';
                        }
                      | {
                          image_url: {
                            /** @description The image at /v1/files/{fileId} (needs the key). */
                            url: string;
                          };
                          /** @enum {string} */
                          type: 'image_url';
                        }
                    )[];
                refusal: null;
                /** @enum {string} */
                role: 'assistant';
              };
            }[];
            /** @description Unix time in seconds. */
            created: number;
            /** @description The id of the agent's reply (`msg_…`), as in its conversation history. */
            id: string;
            /** @description The agent id. */
            model: string;
            /** @enum {string} */
            object: 'chat.completion';
            usage: {
              completion_tokens: number;
              prompt_tokens: number;
              total_tokens: number;
            };
          };
          'text/event-stream': string;
        };
      };
      /** @description A request OpenAI clients would not send, or a `model` that names more than one agent. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description The key lacks the scope this operation needs. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description No agent of this account is that model. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description Error */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description Error */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description A rate or concurrency limit is exhausted; see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description The database, the agent or its model provider cannot answer now; see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
    };
  };
  listEvalDatasets: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Items per page, 1–100 (default 20). */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              caseCount: number;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              description: string | null;
              id: string;
              name: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              updatedAt: string;
            }[];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  createEvalDataset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description At most 1,000 cases, with unique ids. */
          cases: {
            /** @description Tools with side effects (POST requests, transfers, platform posts, A2A messages) are not run in an eval: the model gets `{"stubbed": true, "reason": "not executed in an eval"}`. `true` runs them all for this case, a list runs the tools named. Default false. */
            allowSideEffects?: boolean | string[];
            /** @description Given with each message, as a message's `context` (at most 16 KiB as JSON). */
            context?: {
              [key: string]: unknown;
            };
            /** @description The scorers of this case (none: it passes when it answers). */
            expect: (
              | {
                  /** @description Default false. */
                  caseSensitive?: boolean;
                  /** @enum {string} */
                  type: 'contains';
                  value: string;
                }
              | {
                  /** @description Default false. */
                  caseSensitive?: boolean;
                  /** @enum {string} */
                  type: 'notContains';
                  value: string;
                }
              | {
                  /** @description Any of `i`, `m`, `s`, `u`, each at most once. */
                  flags?: string;
                  /** @description A JavaScript regular expression, at most 200 characters, without backreferences or nested quantifiers. */
                  pattern: string;
                  /** @enum {string} */
                  type: 'regex';
                }
              | {
                  /** @description Compare without leading and trailing whitespace (default true). */
                  trim?: boolean;
                  /** @enum {string} */
                  type: 'equals';
                  value: string;
                }
              | {
                  /** @description A JSON Schema (draft 2020-12 subset Ajv reads), at most 16 KiB as JSON. */
                  schema: {
                    [key: string]: unknown;
                  };
                  /** @enum {string} */
                  type: 'jsonSchema';
                }
              | {
                  /** @description A partial match: each field given must be in the call’s input with an equal value (objects compared the same way, recursively). */
                  input?: {
                    [key: string]: unknown;
                  };
                  /** @description A tool name as the model sees it. */
                  name: string;
                  /** @enum {string} */
                  type: 'toolCalled';
                }
              | {
                  /** @description A tool name as the model sees it. */
                  name?: string;
                  /** @enum {string} */
                  type: 'noToolCalled';
                }
              | {
                  /** @enum {string} */
                  type: 'finishReason';
                  /** @enum {string} */
                  value:
                    | 'stop'
                    | 'length'
                    | 'content-filter'
                    | 'tool-calls'
                    | 'error'
                    | 'other'
                    | 'aborted'
                    | 'approval_required';
                }
              | {
                  max: number;
                  /** @enum {string} */
                  type: 'latencyMs';
                }
              | {
                  max: number;
                  /** @enum {string} */
                  type: 'tokens';
                }
              | {
                  max: number;
                  /** @enum {string} */
                  type: 'costUsd';
                }
              | {
                  /** @description What a good reply does, for the judge model. */
                  criteria: string;
                  /** @description The score from which the case passes (default 0.5). */
                  minScore?: number;
                  /** @enum {string} */
                  type: 'rubric';
                }
            )[];
            /** @description Unique within the dataset: letters, digits, `_ . : -`. */
            id: string;
            /** @description The user messages, sent in order in one conversation of the case’s own; the scorers judge the last reply (tool calls, latency, tokens and cost: over all replies of the case). */
            messages: string[];
            /** @description Who speaks, as the model sees it. Never a real conversation: see docs/evals.md, "Isolation". */
            userId?: string;
          }[];
          description?: string | null;
          name: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            caseCount: number;
            cases: {
              /** @description Tools with side effects (POST requests, transfers, platform posts, A2A messages) are not run in an eval: the model gets `{"stubbed": true, "reason": "not executed in an eval"}`. `true` runs them all for this case, a list runs the tools named. Default false. */
              allowSideEffects?: boolean | string[];
              /** @description Given with each message, as a message's `context` (at most 16 KiB as JSON). */
              context?: {
                [key: string]: unknown;
              };
              /** @description The scorers of this case (none: it passes when it answers). */
              expect: (
                | {
                    /** @description Default false. */
                    caseSensitive?: boolean;
                    /** @enum {string} */
                    type: 'contains';
                    value: string;
                  }
                | {
                    /** @description Default false. */
                    caseSensitive?: boolean;
                    /** @enum {string} */
                    type: 'notContains';
                    value: string;
                  }
                | {
                    /** @description Any of `i`, `m`, `s`, `u`, each at most once. */
                    flags?: string;
                    /** @description A JavaScript regular expression, at most 200 characters, without backreferences or nested quantifiers. */
                    pattern: string;
                    /** @enum {string} */
                    type: 'regex';
                  }
                | {
                    /** @description Compare without leading and trailing whitespace (default true). */
                    trim?: boolean;
                    /** @enum {string} */
                    type: 'equals';
                    value: string;
                  }
                | {
                    /** @description A JSON Schema (draft 2020-12 subset Ajv reads), at most 16 KiB as JSON. */
                    schema: {
                      [key: string]: unknown;
                    };
                    /** @enum {string} */
                    type: 'jsonSchema';
                  }
                | {
                    /** @description A partial match: each field given must be in the call’s input with an equal value (objects compared the same way, recursively). */
                    input?: {
                      [key: string]: unknown;
                    };
                    /** @description A tool name as the model sees it. */
                    name: string;
                    /** @enum {string} */
                    type: 'toolCalled';
                  }
                | {
                    /** @description A tool name as the model sees it. */
                    name?: string;
                    /** @enum {string} */
                    type: 'noToolCalled';
                  }
                | {
                    /** @enum {string} */
                    type: 'finishReason';
                    /** @enum {string} */
                    value:
                      | 'stop'
                      | 'length'
                      | 'content-filter'
                      | 'tool-calls'
                      | 'error'
                      | 'other'
                      | 'aborted'
                      | 'approval_required';
                  }
                | {
                    max: number;
                    /** @enum {string} */
                    type: 'latencyMs';
                  }
                | {
                    max: number;
                    /** @enum {string} */
                    type: 'tokens';
                  }
                | {
                    max: number;
                    /** @enum {string} */
                    type: 'costUsd';
                  }
                | {
                    /** @description What a good reply does, for the judge model. */
                    criteria: string;
                    /** @description The score from which the case passes (default 0.5). */
                    minScore?: number;
                    /** @enum {string} */
                    type: 'rubric';
                  }
              )[];
              /** @description Unique within the dataset: letters, digits, `_ . : -`. */
              id: string;
              /** @description The user messages, sent in order in one conversation of the case’s own; the scorers judge the last reply (tool calls, latency, tokens and cost: over all replies of the case). */
              messages: string[];
              /** @description Who speaks, as the model sees it. Never a real conversation: see docs/evals.md, "Isolation". */
              userId?: string;
            }[];
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            description: string | null;
            id: string;
            name: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            updatedAt: string;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getEvalDataset: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        datasetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            caseCount: number;
            cases: {
              /** @description Tools with side effects (POST requests, transfers, platform posts, A2A messages) are not run in an eval: the model gets `{"stubbed": true, "reason": "not executed in an eval"}`. `true` runs them all for this case, a list runs the tools named. Default false. */
              allowSideEffects?: boolean | string[];
              /** @description Given with each message, as a message's `context` (at most 16 KiB as JSON). */
              context?: {
                [key: string]: unknown;
              };
              /** @description The scorers of this case (none: it passes when it answers). */
              expect: (
                | {
                    /** @description Default false. */
                    caseSensitive?: boolean;
                    /** @enum {string} */
                    type: 'contains';
                    value: string;
                  }
                | {
                    /** @description Default false. */
                    caseSensitive?: boolean;
                    /** @enum {string} */
                    type: 'notContains';
                    value: string;
                  }
                | {
                    /** @description Any of `i`, `m`, `s`, `u`, each at most once. */
                    flags?: string;
                    /** @description A JavaScript regular expression, at most 200 characters, without backreferences or nested quantifiers. */
                    pattern: string;
                    /** @enum {string} */
                    type: 'regex';
                  }
                | {
                    /** @description Compare without leading and trailing whitespace (default true). */
                    trim?: boolean;
                    /** @enum {string} */
                    type: 'equals';
                    value: string;
                  }
                | {
                    /** @description A JSON Schema (draft 2020-12 subset Ajv reads), at most 16 KiB as JSON. */
                    schema: {
                      [key: string]: unknown;
                    };
                    /** @enum {string} */
                    type: 'jsonSchema';
                  }
                | {
                    /** @description A partial match: each field given must be in the call’s input with an equal value (objects compared the same way, recursively). */
                    input?: {
                      [key: string]: unknown;
                    };
                    /** @description A tool name as the model sees it. */
                    name: string;
                    /** @enum {string} */
                    type: 'toolCalled';
                  }
                | {
                    /** @description A tool name as the model sees it. */
                    name?: string;
                    /** @enum {string} */
                    type: 'noToolCalled';
                  }
                | {
                    /** @enum {string} */
                    type: 'finishReason';
                    /** @enum {string} */
                    value:
                      | 'stop'
                      | 'length'
                      | 'content-filter'
                      | 'tool-calls'
                      | 'error'
                      | 'other'
                      | 'aborted'
                      | 'approval_required';
                  }
                | {
                    max: number;
                    /** @enum {string} */
                    type: 'latencyMs';
                  }
                | {
                    max: number;
                    /** @enum {string} */
                    type: 'tokens';
                  }
                | {
                    max: number;
                    /** @enum {string} */
                    type: 'costUsd';
                  }
                | {
                    /** @description What a good reply does, for the judge model. */
                    criteria: string;
                    /** @description The score from which the case passes (default 0.5). */
                    minScore?: number;
                    /** @enum {string} */
                    type: 'rubric';
                  }
              )[];
              /** @description Unique within the dataset: letters, digits, `_ . : -`. */
              id: string;
              /** @description The user messages, sent in order in one conversation of the case’s own; the scorers judge the last reply (tool calls, latency, tokens and cost: over all replies of the case). */
              messages: string[];
              /** @description Who speaks, as the model sees it. Never a real conversation: see docs/evals.md, "Isolation". */
              userId?: string;
            }[];
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            description: string | null;
            id: string;
            name: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            updatedAt: string;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteEvalDataset: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        datasetId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deleted: boolean;
            id: string;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateEvalDataset: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        datasetId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description At most 1,000 cases, with unique ids. */
          cases?: {
            /** @description Tools with side effects (POST requests, transfers, platform posts, A2A messages) are not run in an eval: the model gets `{"stubbed": true, "reason": "not executed in an eval"}`. `true` runs them all for this case, a list runs the tools named. Default false. */
            allowSideEffects?: boolean | string[];
            /** @description Given with each message, as a message's `context` (at most 16 KiB as JSON). */
            context?: {
              [key: string]: unknown;
            };
            /** @description The scorers of this case (none: it passes when it answers). */
            expect: (
              | {
                  /** @description Default false. */
                  caseSensitive?: boolean;
                  /** @enum {string} */
                  type: 'contains';
                  value: string;
                }
              | {
                  /** @description Default false. */
                  caseSensitive?: boolean;
                  /** @enum {string} */
                  type: 'notContains';
                  value: string;
                }
              | {
                  /** @description Any of `i`, `m`, `s`, `u`, each at most once. */
                  flags?: string;
                  /** @description A JavaScript regular expression, at most 200 characters, without backreferences or nested quantifiers. */
                  pattern: string;
                  /** @enum {string} */
                  type: 'regex';
                }
              | {
                  /** @description Compare without leading and trailing whitespace (default true). */
                  trim?: boolean;
                  /** @enum {string} */
                  type: 'equals';
                  value: string;
                }
              | {
                  /** @description A JSON Schema (draft 2020-12 subset Ajv reads), at most 16 KiB as JSON. */
                  schema: {
                    [key: string]: unknown;
                  };
                  /** @enum {string} */
                  type: 'jsonSchema';
                }
              | {
                  /** @description A partial match: each field given must be in the call’s input with an equal value (objects compared the same way, recursively). */
                  input?: {
                    [key: string]: unknown;
                  };
                  /** @description A tool name as the model sees it. */
                  name: string;
                  /** @enum {string} */
                  type: 'toolCalled';
                }
              | {
                  /** @description A tool name as the model sees it. */
                  name?: string;
                  /** @enum {string} */
                  type: 'noToolCalled';
                }
              | {
                  /** @enum {string} */
                  type: 'finishReason';
                  /** @enum {string} */
                  value:
                    | 'stop'
                    | 'length'
                    | 'content-filter'
                    | 'tool-calls'
                    | 'error'
                    | 'other'
                    | 'aborted'
                    | 'approval_required';
                }
              | {
                  max: number;
                  /** @enum {string} */
                  type: 'latencyMs';
                }
              | {
                  max: number;
                  /** @enum {string} */
                  type: 'tokens';
                }
              | {
                  max: number;
                  /** @enum {string} */
                  type: 'costUsd';
                }
              | {
                  /** @description What a good reply does, for the judge model. */
                  criteria: string;
                  /** @description The score from which the case passes (default 0.5). */
                  minScore?: number;
                  /** @enum {string} */
                  type: 'rubric';
                }
            )[];
            /** @description Unique within the dataset: letters, digits, `_ . : -`. */
            id: string;
            /** @description The user messages, sent in order in one conversation of the case’s own; the scorers judge the last reply (tool calls, latency, tokens and cost: over all replies of the case). */
            messages: string[];
            /** @description Who speaks, as the model sees it. Never a real conversation: see docs/evals.md, "Isolation". */
            userId?: string;
          }[];
          description?: string | null;
          name?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            caseCount: number;
            cases: {
              /** @description Tools with side effects (POST requests, transfers, platform posts, A2A messages) are not run in an eval: the model gets `{"stubbed": true, "reason": "not executed in an eval"}`. `true` runs them all for this case, a list runs the tools named. Default false. */
              allowSideEffects?: boolean | string[];
              /** @description Given with each message, as a message's `context` (at most 16 KiB as JSON). */
              context?: {
                [key: string]: unknown;
              };
              /** @description The scorers of this case (none: it passes when it answers). */
              expect: (
                | {
                    /** @description Default false. */
                    caseSensitive?: boolean;
                    /** @enum {string} */
                    type: 'contains';
                    value: string;
                  }
                | {
                    /** @description Default false. */
                    caseSensitive?: boolean;
                    /** @enum {string} */
                    type: 'notContains';
                    value: string;
                  }
                | {
                    /** @description Any of `i`, `m`, `s`, `u`, each at most once. */
                    flags?: string;
                    /** @description A JavaScript regular expression, at most 200 characters, without backreferences or nested quantifiers. */
                    pattern: string;
                    /** @enum {string} */
                    type: 'regex';
                  }
                | {
                    /** @description Compare without leading and trailing whitespace (default true). */
                    trim?: boolean;
                    /** @enum {string} */
                    type: 'equals';
                    value: string;
                  }
                | {
                    /** @description A JSON Schema (draft 2020-12 subset Ajv reads), at most 16 KiB as JSON. */
                    schema: {
                      [key: string]: unknown;
                    };
                    /** @enum {string} */
                    type: 'jsonSchema';
                  }
                | {
                    /** @description A partial match: each field given must be in the call’s input with an equal value (objects compared the same way, recursively). */
                    input?: {
                      [key: string]: unknown;
                    };
                    /** @description A tool name as the model sees it. */
                    name: string;
                    /** @enum {string} */
                    type: 'toolCalled';
                  }
                | {
                    /** @description A tool name as the model sees it. */
                    name?: string;
                    /** @enum {string} */
                    type: 'noToolCalled';
                  }
                | {
                    /** @enum {string} */
                    type: 'finishReason';
                    /** @enum {string} */
                    value:
                      | 'stop'
                      | 'length'
                      | 'content-filter'
                      | 'tool-calls'
                      | 'error'
                      | 'other'
                      | 'aborted'
                      | 'approval_required';
                  }
                | {
                    max: number;
                    /** @enum {string} */
                    type: 'latencyMs';
                  }
                | {
                    max: number;
                    /** @enum {string} */
                    type: 'tokens';
                  }
                | {
                    max: number;
                    /** @enum {string} */
                    type: 'costUsd';
                  }
                | {
                    /** @description What a good reply does, for the judge model. */
                    criteria: string;
                    /** @description The score from which the case passes (default 0.5). */
                    minScore?: number;
                    /** @enum {string} */
                    type: 'rubric';
                  }
              )[];
              /** @description Unique within the dataset: letters, digits, `_ . : -`. */
              id: string;
              /** @description The user messages, sent in order in one conversation of the case’s own; the scorers judge the last reply (tool calls, latency, tokens and cost: over all replies of the case). */
              messages: string[];
              /** @description Who speaks, as the model sees it. Never a real conversation: see docs/evals.md, "Isolation". */
              userId?: string;
            }[];
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            description: string | null;
            id: string;
            name: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            updatedAt: string;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        /** @description Only this agent's events (deleted agents included). */
        agentId?: string;
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Events per page, 1–100 (default 20). */
        limit?: number;
        /** @description Only events of this type. */
        type?:
          | 'agent.created'
          | 'agent.updated'
          | 'agent.status_changed'
          | 'agent.budget_exceeded'
          | 'agent.deleted'
          | 'connector.started'
          | 'connector.stopped'
          | 'connector.failed'
          | 'connector.received'
          | 'connector.posted'
          | 'memory.updated'
          | 'run.completed'
          | 'run.failed'
          | 'run.cancelled'
          | 'run.waiting'
          | 'task.paused'
          | 'tool.transfer';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              /** @description The id of the API key that made the change, or `service`. */
              actor: string;
              agentId: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              /** @description `agent.created`: name, status. `agent.updated`: `fields` changed, with `plugins`/`platforms` entries (`entry`, `change`, `secretsChanged` names) and `model.fields`; never a secret value. `agent.status_changed`: from, to, reason, by (`owner` or `service`). `agent.deleted`: name. `agent.budget_exceeded`: a spend limit refused a message or task (once per limit and period): scope, unit, period, limit, spent, reserved, resetsAt. `connector.started`, `connector.stopped`, `connector.failed`: platform (its type), reason. `connector.received`: a social connector took a post addressed to the agent (platform, postId, userId). `connector.posted`: it posted (platform, postId, inReplyTo, part and parts of a thread, source: `reply`, `task` or `api`); never the text. `memory.updated`: userId, roomId, `summary` (true when it changed), `facts` ({ added, replaced, removed } counts), `source` (`background` or `api`); never the remembered text. `run.completed`, `run.failed`, `run.cancelled`: a run the service produced (a background message, a task) ended: runId, trigger, taskId, messageId, and for a failed one the problem `code`; `run.waiting`: such a run paused for approvals. `task.paused`: taskId, name, reason, consecutiveFailures. `tool.transfer`: the `evm` plugin sent a transfer: chain, chainId, from, to, asset (`native` or the token's symbol), tokenAddress, amount ({ baseUnits, formatted }), hash; never the key. */
              data: {
                [key: string]: unknown;
              };
              id: string;
              /** @description The request that made the change. */
              requestId: string | null;
              /**
               * @description What happened; more types (e.g. `connector.*`) may be added, so ignore those you do not know.
               * @enum {string}
               */
              type:
                | 'agent.created'
                | 'agent.updated'
                | 'agent.status_changed'
                | 'agent.budget_exceeded'
                | 'agent.deleted'
                | 'connector.started'
                | 'connector.stopped'
                | 'connector.failed'
                | 'connector.received'
                | 'connector.posted'
                | 'memory.updated'
                | 'run.completed'
                | 'run.failed'
                | 'run.cancelled'
                | 'run.waiting'
                | 'task.paused'
                | 'tool.transfer';
            }[];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getFile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        fileId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/gif': string;
          'image/jpeg': string;
          'image/png': string;
          'image/webp': string;
        };
      };
      /** @description Not modified: the ETag matched. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listKnowledgeBases: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Per page, 1–100 (default 20). */
        limit?: number;
        /** @description Page number, from 1 (default 1). Ignored with `cursor`. */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['KnowledgeBase'][];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
              page: number;
              total: number;
              totalPages: number;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  createKnowledgeBase: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          description?: string;
          name: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeBase'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getKnowledgeBase: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeBase'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteKnowledgeBase: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            /** @description The agents that used this knowledge base; it was removed from their `knowledgeBases`. */
            detachedFrom: string[];
            id: string;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateKnowledgeBase: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          description?: string | null;
          name?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeBase'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listDocuments: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Per page, 1–100 (default 20). */
        limit?: number;
      };
      header?: never;
      path: {
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['KnowledgeDocument'][];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  addDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description The document itself, as text (Markdown, HTML, JSON or plain text). */
          content?: string;
          /**
           * @description How to read `content` (default text/plain).
           * @enum {string}
           */
          contentType?: 'text/plain' | 'text/markdown' | 'text/html' | 'application/json' | 'application/pdf';
          /** @description Required with `content`; default for `url`: the URL. */
          title?: string;
          /**
           * Format: uri
           * @description An http(s) URL to fetch the document from (public addresses only).
           */
          url?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeDocument'];
        };
      };
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeDocument'];
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        documentId: string;
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeDocument'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        documentId: string;
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            id: string;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  retryDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        documentId: string;
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['KnowledgeDocument'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  searchKnowledgeBase: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        knowledgeBaseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Chunks to return, 1–50 (default 5). */
          limit?: number;
          /**
           * @description `hybrid` (default: full text and vectors, fused by rank), `text` or `vector` alone. Without an embedding model on the server every mode is full text.
           * @enum {string}
           */
          mode?: 'hybrid' | 'text' | 'vector';
          query: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              chunkId: string;
              content: string;
              documentId: string;
              heading: string | null;
              knowledgeBaseId: string;
              /** @description The chunk's place in its document, from 0 (the document's `chunkCount` chunks in order). */
              position: number;
              /** @description Reciprocal-rank-fusion score; higher is better, comparable within one search. */
              score: number;
              /** @description The document's title. */
              title: string;
            }[];
            /**
             * @description The retrieval that ran.
             * @enum {string}
             */
            mode: 'hybrid' | 'text' | 'vector';
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  mcp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description A JSON-RPC 2.0 request or notification of MCP. */
    requestBody: {
      content: {
        'application/json': {
          /** @description Present on requests, absent on notifications. */
          id?: string | number;
          /** @enum {string} */
          jsonrpc: '2.0';
          /** @description e.g. initialize, tools/list, tools/call. */
          method: string;
          params?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description The JSON-RPC response, or an event stream of notifications ending with it. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
          'text/event-stream': string;
        };
      };
      /** @description Notifications only: accepted. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getUsage: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Start of the range (default: 30 days before `to`), rounded down to the hour. */
        from?: string;
        /** @description Agents per page, 1–1000 (default 100). */
        limit?: number;
        /** @description End of the range (default: now): the hours that start before it are counted, whole. */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            accountId: string;
            data: {
              agentId: string;
              /** @description Of `inputTokens`, those the provider read from its prompt cache (billed lower; README, "Prompt caching"). 0 where the provider reports none (builtin, most OpenAI-compatible servers). */
              cachedInputTokens: number;
              /** @description Messages refused 429 `concurrency_limited` (messages in flight per agent, open streams per account). */
              concurrencyRejected: number;
              /** @description What the replies cost in US dollars (to the micro-dollar), each priced when it was made from the price table: the dated defaults for OpenAI and Anthropic models, free for `builtin` and `ollama`, and AGENTD_MODEL_PRICES (README, "Model prices"). Messages whose model has no price count 0 here and are counted in `unpricedMessages`. */
              costUsd: number;
              /** @description Of `messages`, those that ended with an error. */
              failedMessages: number;
              /** @description `failedMessages` by cause, types with a count only: `provider_error` (unreachable, 5xx, broke off), `provider_rejected` (another 4xx), `timeout`, `circuit_open`, `credentials`, `model_not_found`, `internal`. More types may be added. */
              failuresByType: {
                circuit_open?: number;
                credentials?: number;
                internal?: number;
                model_not_found?: number;
                provider_error?: number;
                provider_rejected?: number;
                timeout?: number;
              };
              /** @description Images sent with messages (`attachments`) that reached the agent. */
              imagesIn: number;
              /** @description Images replies produced (made by a tool such as generate_image). */
              imagesOut: number;
              /** @description Input tokens the provider reported (summed over tool rounds). */
              inputTokens: number;
              /** @description Request to reply complete, of completed replies. Milliseconds, from a fixed-bucket histogram: the value reported is the upper bound of the bucket that holds the percentile (bounds 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500, 2500, 4000, 6000, 10000, 15000, 25000, 40000, 60000, 100000, 150000, 300000 ms), so it is never below the true value and at most one bucket (about ×1.6) above it; above 300000 ms it reads 300000. Null when there was no sample. */
              latencyMs: {
                p50: number | null;
                p95: number | null;
                p99: number | null;
              };
              /** @description Long-term memory updates: a summary or facts changed (in the background after exchanges, through the memory API, or by forgetting a conversation); each is a `memory.updated` event. */
              memoryUpdates: number;
              /** @description Messages accepted (past the rate and concurrency limits), streamed or not, whatever their outcome. */
              messages: number;
              /** @description Output tokens the provider reported. */
              outputTokens: number;
              /** @description Messages refused 429 `rate_limited` (the per-agent message rate). */
              rateLimited: number;
              /** @description `messages` by who started the run each reply is: `message` (POST …/messages, background or not), `task`, `platform`, `door` (the OpenAI-compatible endpoint). */
              runsByTrigger: {
                a2a: number;
                approval: number;
                door: number;
                eval: number;
                mcp: number;
                message: number;
                platform: number;
                task: number;
              };
              /** @description Of `messages`, those with `stream: true`. */
              streamedMessages: number;
              /** @description Request to the first text of streamed replies. Milliseconds, from a fixed-bucket histogram: the value reported is the upper bound of the bucket that holds the percentile (bounds 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500, 2500, 4000, 6000, 10000, 15000, 25000, 40000, 60000, 100000, 150000, 300000 ms), so it is never below the true value and at most one bucket (about ×1.6) above it; above 300000 ms it reads 300000. Null when there was no sample. */
              timeToFirstTokenMs: {
                p50: number | null;
                p95: number | null;
              };
              /** @description Tool calls the replies made. */
              toolCalls: number;
              /** @description Of `messages`, those whose model has no price (e.g. an openai-compatible model not in AGENTD_MODEL_PRICES): their cost is not in `costUsd`. Above 0, `costUsd` is understated. */
              unpricedMessages: number;
            }[];
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            from: string;
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            to: string;
            /** MetricTotals */
            totals: {
              /** @description Of `inputTokens`, those the provider read from its prompt cache (billed lower; README, "Prompt caching"). 0 where the provider reports none (builtin, most OpenAI-compatible servers). */
              cachedInputTokens: number;
              /** @description Messages refused 429 `concurrency_limited` (messages in flight per agent, open streams per account). */
              concurrencyRejected: number;
              /** @description What the replies cost in US dollars (to the micro-dollar), each priced when it was made from the price table: the dated defaults for OpenAI and Anthropic models, free for `builtin` and `ollama`, and AGENTD_MODEL_PRICES (README, "Model prices"). Messages whose model has no price count 0 here and are counted in `unpricedMessages`. */
              costUsd: number;
              /** @description Of `messages`, those that ended with an error. */
              failedMessages: number;
              /** @description `failedMessages` by cause, types with a count only: `provider_error` (unreachable, 5xx, broke off), `provider_rejected` (another 4xx), `timeout`, `circuit_open`, `credentials`, `model_not_found`, `internal`. More types may be added. */
              failuresByType: {
                circuit_open?: number;
                credentials?: number;
                internal?: number;
                model_not_found?: number;
                provider_error?: number;
                provider_rejected?: number;
                timeout?: number;
              };
              /** @description Images sent with messages (`attachments`) that reached the agent. */
              imagesIn: number;
              /** @description Images replies produced (made by a tool such as generate_image). */
              imagesOut: number;
              /** @description Input tokens the provider reported (summed over tool rounds). */
              inputTokens: number;
              /** @description Request to reply complete, of completed replies. Milliseconds, from a fixed-bucket histogram: the value reported is the upper bound of the bucket that holds the percentile (bounds 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500, 2500, 4000, 6000, 10000, 15000, 25000, 40000, 60000, 100000, 150000, 300000 ms), so it is never below the true value and at most one bucket (about ×1.6) above it; above 300000 ms it reads 300000. Null when there was no sample. */
              latencyMs: {
                p50: number | null;
                p95: number | null;
                p99: number | null;
              };
              /** @description Long-term memory updates: a summary or facts changed (in the background after exchanges, through the memory API, or by forgetting a conversation); each is a `memory.updated` event. */
              memoryUpdates: number;
              /** @description Messages accepted (past the rate and concurrency limits), streamed or not, whatever their outcome. */
              messages: number;
              /** @description Output tokens the provider reported. */
              outputTokens: number;
              /** @description Messages refused 429 `rate_limited` (the per-agent message rate). */
              rateLimited: number;
              /** @description `messages` by who started the run each reply is: `message` (POST …/messages, background or not), `task`, `platform`, `door` (the OpenAI-compatible endpoint). */
              runsByTrigger: {
                a2a: number;
                approval: number;
                door: number;
                eval: number;
                mcp: number;
                message: number;
                platform: number;
                task: number;
              };
              /** @description Of `messages`, those with `stream: true`. */
              streamedMessages: number;
              /** @description Request to the first text of streamed replies. Milliseconds, from a fixed-bucket histogram: the value reported is the upper bound of the bucket that holds the percentile (bounds 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500, 2500, 4000, 6000, 10000, 15000, 25000, 40000, 60000, 100000, 150000, 300000 ms), so it is never below the true value and at most one bucket (about ×1.6) above it; above 300000 ms it reads 300000. Null when there was no sample. */
              timeToFirstTokenMs: {
                p50: number | null;
                p95: number | null;
              };
              /** @description Tool calls the replies made. */
              toolCalls: number;
              /** @description Of `messages`, those whose model has no price (e.g. an openai-compatible model not in AGENTD_MODEL_PRICES): their cost is not in `costUsd`. Above 0, `costUsd` is understated. */
              unpricedMessages: number;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getDailyUsage: {
    parameters: {
      query?: {
        /** @description Start of the range (default: 30 days before `to`), rounded down to the day (UTC); at most 366 days. */
        from?: string;
        /** @description End of the range (default: now): the hours that start before it are counted, whole. */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            accountId: string;
            /** @description Day by day, then by model; only days and models with traffic are listed. */
            data: {
              /** @description Agents with traffic that day under this model. */
              agents: number;
              /** @description Of `inputTokens`, those the provider read from its prompt cache (billed lower; README, "Prompt caching"). 0 where the provider reports none (builtin, most OpenAI-compatible servers). */
              cachedInputTokens: number;
              /** @description What the replies cost in US dollars (to the micro-dollar), each priced when it was made from the price table: the dated defaults for OpenAI and Anthropic models, free for `builtin` and `ollama`, and AGENTD_MODEL_PRICES (README, "Model prices"). Messages whose model has no price count 0 here and are counted in `unpricedMessages`. */
              costUsd: number;
              /** @description The day (UTC), e.g. 2026-11-22. */
              date: string;
              /** @description Of `messages`, those that ended with an error. */
              failedMessages: number;
              /** @description Input tokens the provider reported (summed over tool rounds). */
              inputTokens: number;
              /** @description Messages accepted (past the rate and concurrency limits), streamed or not, whatever their outcome. */
              messages: number;
              /** @description The model (`provider/name`) the agents that did this work are set to now; null for agents deleted since. An agent whose model changed counts its whole history under the new one. */
              model: string | null;
              /** @description Output tokens the provider reported. */
              outputTokens: number;
              /** @description Tool calls the replies made. */
              toolCalls: number;
              /** @description Of `messages`, those whose model has no price (e.g. an openai-compatible model not in AGENTD_MODEL_PRICES): their cost is not in `costUsd`. Above 0, `costUsd` is understated. */
              unpricedMessages: number;
            }[];
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            from: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            to: string;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listModels: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              /** @description When the agent was created, Unix time in seconds. */
              created: number;
              /** @description The agent id. */
              id: string;
              /** @enum {string} */
              object: 'model';
              /** @enum {string} */
              owned_by: 'agentd';
            }[];
            /** @enum {string} */
            object: 'list';
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description The key lacks the scope this operation needs. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description A rate or concurrency limit is exhausted; see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description The database, the agent or its model provider cannot answer now; see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
    };
  };
  getModel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description An agent id, or `agent:<name>`. */
        model: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description When the agent was created, Unix time in seconds. */
            created: number;
            /** @description The agent id. */
            id: string;
            /** @enum {string} */
            object: 'model';
            /** @enum {string} */
            owned_by: 'agentd';
          };
        };
      };
      /** @description A request OpenAI clients would not send, or a `model` that names more than one agent. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description The key lacks the scope this operation needs. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description No agent of this account is that model. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description A rate or concurrency limit is exhausted; see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
      /** @description The database, the agent or its model provider cannot answer now; see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            error: {
              /** @description agentd's error code (see /docs/errors). */
              code: string;
              message: string;
              /** @description The offending request field, if one. */
              param: string | null;
              /** @description invalid_request_error, authentication_error, permission_error, not_found_error, … */
              type: string;
            };
          };
        };
      };
    };
  };
  listPlatforms: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              description: string;
              /** @description JSON Schema of `platforms[].secrets` (write-only strings). */
              secretsSchema: unknown;
              /** @description JSON Schema of `platforms[].settings` (defaults shown). */
              settingsSchema: unknown;
              /** @description What `platforms[].type` says to use this connector. */
              type: string;
            }[];
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  platformInbound: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        type: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The connector's answer (the generic webhook: `{text, limited}`, and `reply`, a deprecated copy of `text`). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description Accepted: the reply will be POSTed to the callback URL, or (`duplicate: true`) the message was received before and is not answered again (generic webhook). */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  platformInboundPath: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        agentId: string;
        type: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The connector's answer (the generic webhook: `{text, limited}`, and `reply`, a deprecated copy of `text`). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description Accepted: the reply will be POSTed to the callback URL, or (`duplicate: true`) the message was received before and is not answered again (generic webhook). */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listPlugins: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              /** @description JSON Schema of `plugins[].config` (defaults shown). */
              configSchema: unknown;
              description: string;
              /** @description What `plugins[].name` says to use this plugin. */
              name: string;
              /** @description JSON Schema of `plugins[].secrets` (write-only strings). */
              secretsSchema: unknown;
            }[];
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listAccountRuns: {
    parameters: {
      query?: {
        /** @description Only this agent's runs. */
        agentId?: string;
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Runs per page, 1–100 (default 20). */
        limit?: number;
        status?: 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled' | 'skipped';
        trigger?: 'message' | 'task' | 'platform' | 'door' | 'mcp' | 'a2a' | 'approval' | 'eval';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Run'][];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Webhooks per page, 1–100 (20). */
        limit?: number;
        /** @description Page number (default 1). */
        page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              description: string | null;
              enabled: boolean;
              events: string[];
              id: string;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              updatedAt: string;
              url: string;
            }[];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
              page: number;
              total: number;
              totalPages: number;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          description?: string | null;
          /** @default true */
          enabled?: boolean;
          events: (
            | 'agent.created'
            | 'agent.updated'
            | 'agent.deleted'
            | 'agent.status_changed'
            | 'agent.budget_exceeded'
            | 'agent.version_created'
            | 'message.completed'
            | 'message.failed'
            | 'memory.updated'
            | 'task.completed'
            | 'task.failed'
            | 'task.paused'
            | 'approval.requested'
            | 'eval.completed'
          )[];
          /**
           * Format: uri
           * @description Where events are POSTed: an http(s) URL. Loopback, private and link-local addresses are refused unless the operator set AGENTD_OUTBOUND_ALLOW_PRIVATE.
           */
          url: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            description: string | null;
            enabled: boolean;
            events: string[];
            id: string;
            /** @description The signing secret (`whsec_…`, Standard Webhooks). Shown only in this response: store it now to verify the `webhook-signature` header. */
            secret: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            updatedAt: string;
            url: string;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            description: string | null;
            enabled: boolean;
            events: string[];
            id: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            updatedAt: string;
            url: string;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {boolean} */
            deleted: true;
            id: string;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  updateWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          description?: string | null;
          enabled?: boolean;
          events?: (
            | 'agent.created'
            | 'agent.updated'
            | 'agent.deleted'
            | 'agent.status_changed'
            | 'agent.budget_exceeded'
            | 'agent.version_created'
            | 'message.completed'
            | 'message.failed'
            | 'memory.updated'
            | 'task.completed'
            | 'task.failed'
            | 'task.paused'
            | 'approval.requested'
            | 'eval.completed'
          )[];
          /**
           * Format: uri
           * @description Where events are POSTed: an http(s) URL. Loopback, private and link-local addresses are refused unless the operator set AGENTD_OUTBOUND_ALLOW_PRIVATE.
           */
          url?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            description: string | null;
            enabled: boolean;
            events: string[];
            id: string;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            updatedAt: string;
            url: string;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is larger than the limit (`payload_too_large`). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The body is not JSON (`unsupported_media_type`). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description The `nextCursor` of the previous page. */
        cursor?: string;
        /** @description Deliveries per page (20). */
        limit?: number;
      };
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              attemptLog: {
                /**
                 * Format: date-time
                 * @description RFC 3339 UTC time with milliseconds.
                 */
                at: string;
                /** @description 1 for the first attempt. */
                attempt: number;
                durationMs: number;
                /** @description Why the attempt failed; null on success. */
                error: string | null;
                /** @description The receiver's HTTP status; null when it did not answer. */
                statusCode: number | null;
              }[];
              attempts: number;
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              createdAt: string;
              /** @description The `webhook-id` header: the same on every attempt and redelivery. */
              eventId: string;
              eventType: string;
              id: string;
              lastAttempt: {
                /**
                 * Format: date-time
                 * @description RFC 3339 UTC time with milliseconds.
                 */
                at: string;
                /** @description 1 for the first attempt. */
                attempt: number;
                durationMs: number;
                /** @description Why the attempt failed; null on success. */
                error: string | null;
                /** @description The receiver's HTTP status; null when it did not answer. */
                statusCode: number | null;
              } | null;
              /**
               * Format: date-time
               * @description When the next attempt is due, if pending.
               */
              nextAttemptAt: string | null;
              /**
               * @deprecated
               * @description Deprecated: the former name of `status`, with the same value.
               * @enum {string}
               */
              state: 'pending' | 'succeeded' | 'failed' | 'cancelled';
              /**
               * @description `pending` until an attempt succeeds (2xx), attempts run out (`failed`), or the webhook is disabled or deleted (`cancelled`).
               * @enum {string}
               */
              status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
              webhookId: string;
            }[];
            pagination: {
              hasMore: boolean;
              limit: number;
              nextCursor: string | null;
            };
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  redeliverWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deliveryId: string;
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            attemptLog: {
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              at: string;
              /** @description 1 for the first attempt. */
              attempt: number;
              durationMs: number;
              /** @description Why the attempt failed; null on success. */
              error: string | null;
              /** @description The receiver's HTTP status; null when it did not answer. */
              statusCode: number | null;
            }[];
            attempts: number;
            /**
             * Format: date-time
             * @description RFC 3339 UTC time with milliseconds.
             */
            createdAt: string;
            /** @description The `webhook-id` header: the same on every attempt and redelivery. */
            eventId: string;
            eventType: string;
            id: string;
            lastAttempt: {
              /**
               * Format: date-time
               * @description RFC 3339 UTC time with milliseconds.
               */
              at: string;
              /** @description 1 for the first attempt. */
              attempt: number;
              durationMs: number;
              /** @description Why the attempt failed; null on success. */
              error: string | null;
              /** @description The receiver's HTTP status; null when it did not answer. */
              statusCode: number | null;
            } | null;
            /**
             * Format: date-time
             * @description When the next attempt is due, if pending.
             */
            nextAttemptAt: string | null;
            /**
             * @deprecated
             * @description Deprecated: the former name of `status`, with the same value.
             * @enum {string}
             */
            state: 'pending' | 'succeeded' | 'failed' | 'cancelled';
            /**
             * @description `pending` until an attempt succeeds (2xx), attempts run out (`failed`), or the webhook is disabled or deleted (`cancelled`).
             * @enum {string}
             */
            status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
            webhookId: string;
          };
        };
      };
      /** @description Invalid JSON or a request that does not match the schema (`invalid_json`, `validation_failed`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            /** @description The signing secret (`whsec_…`, Standard Webhooks). Shown only in this response: store it now to verify the `webhook-signature` header. */
            secret: string;
          };
        };
      };
      /** @description Missing, malformed, unknown or revoked API key (`unauthorized`). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The key lacks the scope this operation needs (`insufficient_scope`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description No such resource in this account (`not_found`). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description A rate or concurrency limit is exhausted (`rate_limited`, `concurrency_limited`), or for messages a spend limit is reached (`budget_exceeded`, with `limit`, `spent`, `period` and `resetsAt`); see Retry-After. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
      /** @description The database cannot be reached (`service_unavailable`), or for messages the agent or its model provider cannot answer now (`agent_unavailable`, `provider_unavailable`); see Retry-After. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Problem'];
        };
      };
    };
  };
}
