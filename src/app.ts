import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Config } from './config.js';
import { newAjv } from './schemas/json-schema-validator.js';
import type { AppDeps } from './dependencies.js';
import type { App } from './http/app-instance.js';
import { createClientErrorHandler } from './http/client-errors.js';
import { registerDashboard } from './http/dashboard.js';
import { registerJsonBodyParsers } from './http/json-body.js';
import { memoizingSerializerFactory } from './http/memoized-serializer.js';
import { createMetrics, registerRequestObservation } from './http/metrics.js';
import { withPublishedScope } from './http/openapi-scopes.js';
import { registerProblemHandlers, sendProblem, toAppError } from './http/problem.js';
import { registerRequestAdmission } from './http/request-admission.js';
import { createRateCheck, registerRateLimits } from './http/rate-limit.js';
import { registerRequestTracing } from './http/request-tracing.js';
import { serverBoundsOptions } from './http/server-bounds.js';
import { registerCreateAgent } from './routes/agents/create-agent.js';
import { registerDeleteAgent } from './routes/agents/delete-agent.js';
import { registerExportAgent } from './routes/agents/export-agent.js';
import { registerGetAgent } from './routes/agents/get-agent.js';
import { registerImportAgent } from './routes/agents/import-agent.js';
import { registerListAgents } from './routes/agents/list-agents.js';
import { AgentSchema } from './schemas/agents.js';
import { registerUpdateAgent } from './routes/agents/update-agent.js';
import { registerDiffAgentVersions } from './routes/agent-versions/diff-agent-versions.js';
import { registerGetAgentVersion } from './routes/agent-versions/get-agent-version.js';
import { registerListAgentVersions } from './routes/agent-versions/list-agent-versions.js';
import { registerRestoreAgentVersion } from './routes/agent-versions/restore-agent-version.js';
import { registerCancelEval } from './routes/evals/cancel-eval.js';
import { registerCreateEval } from './routes/evals/create-eval.js';
import { registerCreateEvalDataset } from './routes/evals/create-eval-dataset.js';
import { registerDeleteEvalDataset } from './routes/evals/delete-eval-dataset.js';
import { registerGetEval } from './routes/evals/get-eval.js';
import { registerGetEvalDataset } from './routes/evals/get-eval-dataset.js';
import { registerListEvalDatasets } from './routes/evals/list-eval-datasets.js';
import { registerListEvals } from './routes/evals/list-evals.js';
import { registerUpdateEvalDataset } from './routes/evals/update-eval-dataset.js';
import { registerCreateApiKey } from './routes/api-keys/create-api-key.js';
import { registerListApiKeys } from './routes/api-keys/list-api-keys.js';
import { registerAccountLimits } from './routes/account/account-limits.js';
import { registerRevokeApiKey } from './routes/api-keys/revoke-api-key.js';
import { registerListEvents } from './routes/events/list-events.js';
import { registerListAccountEvents } from './routes/events/list-account-events.js';
import { registerGetAgentMetrics } from './routes/metrics/get-agent-metrics.js';
import { registerGetUsage } from './routes/metrics/get-usage.js';
import { registerGetDailyUsage } from './routes/metrics/get-daily-usage.js';
import { registerGetMemory } from './routes/memory/get-memory.js';
import { registerUpdateMemory } from './routes/memory/update-memory.js';
import { registerListPlugins } from './routes/plugins/list-plugins.js';
import { registerListAgentPlatforms } from './routes/platforms/list-agent-platforms.js';
import { registerListPlatforms } from './routes/platforms/list-platforms.js';
import { registerPlatformInbound } from './routes/platforms/platform-inbound.js';
import { registerPostPlatformText } from './routes/platforms/post-platform-text.js';
import { registerForgetConversation } from './routes/messages/forget-conversation.js';
import { registerListConversations } from './routes/messages/list-conversations.js';
import { registerListMessages } from './routes/messages/list-messages.js';
import { Attachment } from './schemas/files.js';
import { MessageReply, ToolCallView } from './schemas/messages.js';
import { Run as RunSchema } from './schemas/runs.js';
import { Approval as ApprovalSchema, PendingApproval } from './schemas/approvals.js';
import { registerListApprovals } from './routes/approvals/list-approvals.js';
import { registerListAccountApprovals } from './routes/approvals/list-account-approvals.js';
import { registerGetApproval } from './routes/approvals/get-approval.js';
import { registerDecideApproval } from './routes/approvals/decide-approval.js';
import { messageBodyLimit, registerSendMessage } from './routes/messages/send-message.js';
import { registerGetFile } from './routes/files/get-file.js';
import { registerCancelRun } from './routes/runs/cancel-run.js';
import { registerGetRun } from './routes/runs/get-run.js';
import { registerListAccountRuns } from './routes/runs/list-account-runs.js';
import { registerRunSteps } from './routes/runs/run-steps.js';
import { registerListRuns } from './routes/runs/list-runs.js';
import { registerRunEvents } from './routes/runs/run-events.js';
import { ProblemSchema } from './schemas/common.js';
import { RunStep, RunStepPrompt } from './schemas/run-steps.js';
import { registerErrorDocs } from './routes/ops/error-docs.js';
import { registerHealth } from './routes/ops/health.js';
import { registerMetricsRoute } from './routes/ops/metrics.js';
import { registerOpenApiRoute } from './routes/ops/openapi.js';
import { registerChatCompletions } from './routes/openai/chat-completions.js';
import { registerListModels } from './routes/openai/list-models.js';
import { registerMcpEndpoint } from './routes/mcp/mcp-endpoint.js';
import { registerA2aJsonRpc } from './routes/a2a/a2a-json-rpc.js';
import { registerGetAgentCard } from './routes/a2a/get-agent-card.js';
import { registerListAgentCards } from './routes/a2a/list-agent-cards.js';
import { McpCallRegistry } from './services/mcp/mcp-calls.js';
import { registerCreateWebhook } from './routes/webhooks/create-webhook.js';
import { registerDeleteWebhook } from './routes/webhooks/delete-webhook.js';
import { registerGetWebhook } from './routes/webhooks/get-webhook.js';
import { registerListDeliveries } from './routes/webhooks/list-deliveries.js';
import { registerListWebhooks } from './routes/webhooks/list-webhooks.js';
import { registerRedeliver } from './routes/webhooks/redeliver.js';
import { registerRotateWebhookSecret } from './routes/webhooks/rotate-webhook-secret.js';
import { registerUpdateWebhook } from './routes/webhooks/update-webhook.js';
import { webhookDocumentation } from './routes/webhooks/webhook-documentation.js';
import { registerAddDocument } from './routes/knowledge-bases/add-document.js';
import { registerCreateKnowledgeBase } from './routes/knowledge-bases/create-knowledge-base.js';
import { registerDeleteDocument } from './routes/knowledge-bases/delete-document.js';
import { registerDeleteKnowledgeBase } from './routes/knowledge-bases/delete-knowledge-base.js';
import { registerGetDocument } from './routes/knowledge-bases/get-document.js';
import { registerGetKnowledgeBase } from './routes/knowledge-bases/get-knowledge-base.js';
import { registerListDocuments } from './routes/knowledge-bases/list-documents.js';
import { registerListKnowledgeBases } from './routes/knowledge-bases/list-knowledge-bases.js';
import { registerRetryDocument } from './routes/knowledge-bases/retry-document.js';
import { registerSearchKnowledgeBase } from './routes/knowledge-bases/search-knowledge-base.js';
import { registerUpdateKnowledgeBase } from './routes/knowledge-bases/update-knowledge-base.js';
import { DocumentSchema, KnowledgeBaseSchema } from './schemas/knowledge-bases.js';
import { registerCreateTask } from './routes/tasks/create-task.js';
import { registerDeleteTask } from './routes/tasks/delete-task.js';
import { registerGetTask } from './routes/tasks/get-task.js';
import { registerListTasks } from './routes/tasks/list-tasks.js';
import { registerRunTask } from './routes/tasks/run-task.js';
import { registerUpdateTask } from './routes/tasks/update-task.js';
import { TaskSchema } from './schemas/tasks.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const clientRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The client's X-Request-Id when it is safe to log, else a new one. A request
 * id needs uniqueness, not order or secrecy: a random prefix per process and a
 * counter give that without drawing randomness on every request's path.
 */
const requestIdPrefix = `req_${randomBytes(8).toString('hex')}`;
let requestCounter = 0;

function generatedRequestId(): string {
  requestCounter += 1;
  return `${requestIdPrefix}${requestCounter.toString(36).padStart(8, '0')}`;
}

function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  if (typeof sent === 'string' && clientRequestId.test(sent)) return sent;
  return generatedRequestId();
}

/**
 * Request validation: bodies are checked strictly (no type coercion, unknown
 * fields rejected, every problem reported); query strings arrive as text, so
 * numbers and booleans are coerced there.
 */
function createValidators() {
  // verbose: an error carries its schema, so a map's key is told by the pattern keys must follow (validation-errors.ts).
  const common = { allErrors: true, removeAdditional: false, strict: false, verbose: true } as const;
  const body = newAjv({ ...common, coerceTypes: false, useDefaults: false });
  const text = newAjv({ ...common, coerceTypes: true, useDefaults: true });
  addFormats(body);
  addFormats(text);
  return { body, text };
}

let validators: ReturnType<typeof createValidators> | undefined;
type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
const compiledValidators = new Map<string, Validator>();

/**
 * A route's validator, compiled once per process for each schema and part: a second app built in the process
 * (as tests do) compiles none again. Keyed by the schema's JSON, which is all a validator depends on.
 */
function validatorFor(schema: object, httpPart: string | undefined): Validator {
  const part = httpPart === 'body' ? 'body' : 'text';
  const key = `${part} ${JSON.stringify(schema)}`;
  let validate = compiledValidators.get(key);
  if (validate === undefined) {
    validators ??= createValidators();
    validate = validators[part].compile(schema);
    compiledValidators.set(key, validate);
  }
  return validate;
}

/**
 * A route's validator as Fastify takes it, compiled when the route first validates a request rather than when
 * it is registered: a start compiles none (0.3 s of CPU before). Fastify reads `errors` after each call.
 */
function lazyValidator(schema: object, httpPart: string | undefined) {
  let compiled: ReturnType<typeof validatorFor> | undefined;
  const validate = (data: unknown): boolean => {
    compiled ??= validatorFor(schema, httpPart);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ErrorObject[] | null | undefined;
  return validate;
}

export interface BuildAppOptions {
  config: Config;
  deps: AppDeps;
}

export async function buildApp({ config, deps }: BuildAppOptions): Promise<App> {
  const fastify = Fastify({
    loggerInstance: deps.services.logger as FastifyBaseLogger,
    schemaController: { compilersFactory: { buildSerializer: memoizingSerializerFactory() } },
    // No child logger per request: every log line of ours names its requestId itself.
    childLoggerFactory: (logger) => logger,
    // One line per request is written by the onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdOf,
    bodyLimit: config.bodyLimitBytes,
    ...serverBoundsOptions(config.http),
    // Requests that reach a draining instance on an open connection are served
    // (and their connection closed, see the onSend hook) rather than refused
    // with a body outside the error catalog; no new connection is accepted.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    clientErrorHandler: createClientErrorHandler(deps.services.logger as FastifyBaseLogger, generatedRequestId),
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      sendProblem(reply, request, toAppError(error));
    },
  });
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Node answers an Expect other than 100-continue with a bare 417 before any route runs; RFC 9110
  // (section 10.1.1) lets a server ignore an expectation it does not know, so the request is served.
  fastify.server.on('checkExpectation', (request, response) => fastify.server.emit('request', request, response));

  app.setValidatorCompiler(({ schema, httpPart }) => lazyValidator(schema, httpPart));

  // JSON only: text/plain would otherwise reach validation as a string.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParsers(app, config.bodyLimitBytes);

  // Every shared schema is added here, before any route scope is registered: a schema added to the root after
  // a scope (the messages route's, with multipart) gives that scope a validator built without the root's
  // options, and the multipart body's unknown fields were then dropped instead of refused.
  app.addSchema(ProblemSchema);
  app.addSchema(AgentSchema);
  app.addSchema(Attachment);
  app.addSchema(ToolCallView);
  app.addSchema(PendingApproval);
  app.addSchema(MessageReply);
  app.addSchema(RunSchema);
  app.addSchema(RunStep);
  app.addSchema(RunStepPrompt);
  app.addSchema(ApprovalSchema);
  app.addSchema(KnowledgeBaseSchema);
  app.addSchema(DocumentSchema);
  app.addSchema(TaskSchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'agentd',
        version: '0.1.0',
        description:
          'Create, configure, list, update, delete and talk to AI agents over HTTP. Every /v1 route needs ' +
          '`Authorization: Bearer <API key>`; errors are RFC 9457 problem+json; authenticated responses carry ' +
          'X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds when the limit is full again).',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'agd_…' } } },
      security: [{ bearerAuth: [] }],
      // OpenAPI 3.1 `webhooks`: the requests agentd makes to subscribed URLs, one per event type.
      webhooks: webhookDocumentation(),
      tags: [
        { name: 'agents', description: 'Agents of the account' },
        { name: 'messages', description: 'Talking to agents, and their conversation history' },
        {
          name: 'runs',
          description: "Every piece of an agent's work, whoever started it: status, events, cancellation",
        },
        { name: 'tasks', description: 'Work agents do on their own, on a schedule' },
        { name: 'evals', description: 'Datasets of cases and eval runs comparing versions of an agent' },
        { name: 'approvals', description: "Tool calls that wait for a person's decision before they run" },
        { name: 'files', description: 'Images sent with messages and made by tools, served to the account' },
        { name: 'api-keys', description: 'API keys of the account' },
        { name: 'webhooks', description: 'Signed event notifications to URLs of the account, and their delivery log' },
        { name: 'metrics', description: 'Per-agent metrics and the usage of the account' },
        {
          name: 'knowledge-bases',
          description: 'Documents agents retrieve from: upload, background indexing, hybrid search',
        },
        { name: 'plugins', description: 'Plugins the server offers: the tools agents can use' },
        { name: 'platforms', description: 'Platform connectors: agents answering on Telegram, webhooks and more' },
        { name: 'openai', description: 'The OpenAI-compatible door: agents as models, for the openai client' },
        { name: 'mcp', description: 'The MCP server: agents as tools for MCP clients' },
        { name: 'a2a', description: 'A2A: each agent as an Agent2Agent agent, with its agent card' },
        { name: 'operations', description: 'Health, readiness and metrics (no key, no rate limit)' },
      ],
    },
    transform: withPublishedScope,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === 'string' ? json.$id : `def-${index}`,
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/v1/openapi.json' } });

  // Callback-style hooks: they run on every request, and skip a promise each.
  app.addHook('onSend', (_request, reply, payload, done) => {
    // While draining, no connection is kept alive for a next request, even one
    // whose request arrived before the drain began.
    if (deps.shutdown.draining) reply.header('connection', 'close');
    done(null, payload);
  });
  // First of the request hooks, so that key lookups and limits are inside the request's span.
  if (deps.tracing !== null) registerRequestTracing(app, deps.tracing);
  registerProblemHandlers(app);
  registerRequestAdmission(app, { maxQueryBytes: config.http.maxQueryBytes, services: deps.services });
  const agentRateLimit = registerRateLimits(app, deps.rateLimiter, config.rateLimits, deps.services.agentMetrics);
  const metrics = createMetrics([deps.modelCalls, deps.tasks.metrics, deps.platforms.metrics]);
  registerRequestObservation(app, metrics, deps.services.logger);

  registerCreateAgent(app);
  registerListAgents(app);
  registerGetAgent(app);
  registerUpdateAgent(app);
  registerDeleteAgent(app);
  registerImportAgent(app);
  registerExportAgent(app);
  registerListAgentVersions(app);
  registerGetAgentVersion(app);
  registerDiffAgentVersions(app);
  registerRestoreAgentVersion(app);
  registerCreateEvalDataset(app);
  registerListEvalDatasets(app);
  registerGetEvalDataset(app);
  registerUpdateEvalDataset(app);
  registerDeleteEvalDataset(app);
  registerCreateEval(app);
  registerListEvals(app);
  registerGetEval(app);
  registerCancelEval(app);
  const messageBodyBytes = messageBodyLimit(config.bodyLimitBytes, config.files.maxImageBytes);
  await registerSendMessage(app, {
    keepAliveMs: config.sseKeepAliveMs,
    shutdown: deps.shutdown,
    bodyLimitBytes: messageBodyBytes,
    maxImageBytes: config.files.maxImageBytes,
  });
  registerGetFile(app);
  registerListRuns(app);
  registerGetRun(app);
  registerRunSteps(app);
  registerListAccountRuns(app);
  registerCancelRun(app);
  registerListAccountApprovals(app);
  registerListApprovals(app);
  registerGetApproval(app);
  registerDecideApproval(app);
  registerRunEvents(app, { keepAliveMs: config.sseKeepAliveMs, shutdown: deps.shutdown });
  registerListMessages(app);
  registerForgetConversation(app);
  registerListConversations(app);
  registerListEvents(app);
  registerListAccountEvents(app);
  registerCreateWebhook(app);
  registerListWebhooks(app);
  registerGetWebhook(app);
  registerUpdateWebhook(app);
  registerDeleteWebhook(app);
  registerRotateWebhookSecret(app);
  registerListDeliveries(app);
  registerRedeliver(app);
  registerGetAgentMetrics(app);
  registerGetUsage(app);
  registerGetDailyUsage(app);
  registerGetMemory(app);
  registerUpdateMemory(app);
  registerCreateApiKey(app);
  registerListApiKeys(app);
  registerAccountLimits(app);
  registerRevokeApiKey(app);
  registerListPlugins(app);
  registerListPlatforms(app);
  registerListAgentPlatforms(app);
  registerPostPlatformText(app, deps.platforms);
  registerPlatformInbound(app, { deps: deps.services, runtime: deps.platforms, bodyLimitBytes: config.bodyLimitBytes });
  registerCreateKnowledgeBase(app);
  registerListKnowledgeBases(app);
  registerGetKnowledgeBase(app);
  registerUpdateKnowledgeBase(app);
  registerDeleteKnowledgeBase(app);
  await registerAddDocument(app, { maxDocumentBytes: config.knowledge.maxDocumentBytes });
  registerListDocuments(app);
  registerGetDocument(app);
  registerDeleteDocument(app);
  registerRetryDocument(app);
  registerSearchKnowledgeBase(app);
  const taskLimits = { minIntervalSeconds: config.tasks.minIntervalSeconds };
  registerCreateTask(app, taskLimits);
  registerListTasks(app);
  registerGetTask(app);
  registerUpdateTask(app, taskLimits);
  registerDeleteTask(app);
  registerRunTask(app, deps.tasks);
  registerChatCompletions(app, {
    keepAliveMs: config.sseKeepAliveMs,
    shutdown: deps.shutdown,
    agentRateLimit,
    bodyLimitBytes: messageBodyBytes,
  });
  registerListModels(app);
  const rateCheck = createRateCheck(deps.rateLimiter, config.rateLimits, deps.services.agentMetrics);
  registerMcpEndpoint(app, {
    rateCheck,
    shutdown: deps.shutdown,
    calls: new McpCallRegistry(),
    keepAliveMs: config.sseKeepAliveMs,
  });
  const cardBase = { publicBaseUrl: config.platforms.publicBaseUrl };
  registerListAgentCards(app, cardBase);
  registerGetAgentCard(app, cardBase);
  registerA2aJsonRpc(app, {
    ...cardBase,
    rateCheck,
    shutdown: deps.shutdown,
    keepAliveMs: config.sseKeepAliveMs,
  });
  registerHealth(app, deps.readiness);
  registerMetricsRoute(app, metrics);
  registerOpenApiRoute(app);
  registerErrorDocs(app);
  if (!(await registerDashboard(app))) {
    deps.services.logger.debug('no dashboard: dist/web was not built (npm run build builds it)');
  }

  await app.ready();
  return app;
}
