import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { unusedPort } from '../helpers/network.js';
import { runAgentd, startServer, type ServerProcess } from '../helpers/server-process.js';
import { knownModel, type IdPool } from './request-arbitrary.js';

/**
 * A real agentd process (SQLite in a fresh data dir, limits off so the fuzzer
 * meets validation rather than 429s, the builtin model) with data of two
 * accounts: ids of the other account must answer like missing ones.
 */

export interface FuzzTarget {
  server: ServerProcess;
  keys: { owner: string; otherAccount: string; readOnly: string; revoked: string };
  pools: Record<IdPool, string[]>;
  /** The server's body limit (the default): larger bodies are refused. */
  bodyLimitBytes: number;
  /** Replaces an own agent the fuzzer deleted, so later requests still reach a live one. */
  replaceAgent(id: string): Promise<void>;
  /** Puts a deleted own webhook (with a delivery) back in its pool slot, or enables a changed one again. */
  restoreWebhook(id: string, deleted: boolean): Promise<void>;
  /** Replaces the own knowledge base (with its documents), or one own document, the fuzzer deleted. */
  replaceKnowledgeBase(id: string): Promise<void>;
  replaceDocument(id: string): Promise<void>;
  /** A deleted own task is replaced by a new one of the same agent. */
  replaceTask(id: string): Promise<void>;
  /** A deleted own eval dataset is replaced by a new one. */
  replaceEvalDataset(id: string): Promise<void>;
  stop(): Promise<void>;
}

const poolSize = 8;

async function call(baseUrl: string, key: string, method: string, url: string, body?: unknown): Promise<any> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Node flags, environment and an IPC channel beyond the defaults: what run.ts loads to read the server's memory. */
export interface FuzzTargetOptions {
  nodeFlags?: string[];
  env?: Record<string, string>;
  ipc?: boolean;
}

export async function startFuzzTarget({
  nodeFlags = [],
  env: extraEnv = {},
  ipc = false,
}: FuzzTargetOptions = {}): Promise<FuzzTarget> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-fuzz-'));
  const owner = generateApiKey();
  const env = {
    AGENTD_DATA_DIR: dataDir,
    AGENTD_BOOTSTRAP_KEY: owner,
    AGENTD_RATE_LIMITS: 'off',
    AGENTD_BUILTIN_WORD_DELAY_MS: '0',
    // Warnings and errors only: an access line per request would be most of the run's work.
    LOG_LEVEL: 'warn',
    PORT: String(await unusedPort()),
  };
  // Two minutes to start: a machine busy with other work has taken over 30 s.
  const server = await startServer({ ...env, ...extraEnv }, 120_000, { nodeFlags, ipc });
  const baseUrl = server.url;
  try {
    // The command line opens the database itself: as slow to start as the server on a busy machine.
    const account = await runAgentd(['accounts', 'create', '--name', 'Other', '--json'], env, 120_000);
    if (account.code !== 0) throw new Error(`agentd accounts create failed (${account.code}): ${account.stderr}`);
    const otherAccountId = JSON.parse(account.stdout).id as string;
    const issued = await runAgentd(['keys', 'create', '--account', otherAccountId, '--json'], env, 120_000);
    const otherKey = JSON.parse(issued.stdout) as { id: string; key: string };

    const newAgent = async (fields: Record<string, unknown> = {}) =>
      (await call(baseUrl, owner, 'POST', '/v1/agents', { name: 'Fuzzed', bio: 'A target.', ...fields })).id as string;
    const ownAgents = [await newAgent({ deletionProtection: true, knowledge: ['Gas is paid in ETH.'] })];
    while (ownAgents.length < poolSize) ownAgents.push(await newAgent());
    // Outside the pools, so never deleted: the agent a chat completion's `model` names (request-arbitrary.ts).
    await newAgent({ name: knownModel.slice('agent:'.length) });
    const deleted = await newAgent();
    await call(baseUrl, owner, 'DELETE', `/v1/agents/${deleted}`);
    const otherAgent = (await call(baseUrl, otherKey.key, 'POST', '/v1/agents', { name: 'Theirs' })).id as string;

    const readOnly = await call(baseUrl, owner, 'POST', '/v1/api-keys', { scopes: ['agents:read'] });
    const revoked = await call(baseUrl, owner, 'POST', '/v1/api-keys', {});
    await call(baseUrl, owner, 'DELETE', `/v1/api-keys/${revoked.id}`);
    const spareKeys: string[] = [];
    while (spareKeys.length < poolSize) spareKeys.push((await call(baseUrl, owner, 'POST', '/v1/api-keys', {})).id);

    // Webhooks to a name that never resolves (RFC 2606), each with one delivery: a status change it subscribes to.
    const newWebhook = async (key: string) =>
      (
        await call(baseUrl, key, 'POST', '/v1/webhooks', {
          url: 'https://hooks.invalid/fuzz',
          events: ['agent.status_changed'],
        })
      ).id as string;
    const ownWebhooks: string[] = [];
    while (ownWebhooks.length < poolSize) ownWebhooks.push(await newWebhook(owner));
    const paused = await newAgent({ name: 'Paused' });
    await call(baseUrl, owner, 'PATCH', `/v1/agents/${paused}`, { status: 'inactive' });
    const ownDeliveries: string[] = [];
    for (const webhook of ownWebhooks) {
      ownDeliveries.push((await call(baseUrl, owner, 'GET', `/v1/webhooks/${webhook}/deliveries`)).data[0].id);
    }
    const otherWebhook = await newWebhook(otherKey.key);
    // One own knowledge base holding every own document, so an own base and an own document always pair up.
    let documentCount = 0;
    const newDocument = async (knowledgeBaseId: string, key = owner) => {
      documentCount += 1;
      const body = { title: `Fuzzed ${documentCount}`, content: `Document ${documentCount} about harbours.` };
      return (await call(baseUrl, key, 'POST', `/v1/knowledge-bases/${knowledgeBaseId}/documents`, body)).id as string;
    };
    const newKnowledgeBase = async (key = owner) =>
      (await call(baseUrl, key, 'POST', '/v1/knowledge-bases', { name: 'Fuzzed' })).id as string;
    const ownBase = await newKnowledgeBase();
    const ownDocuments: string[] = [];
    while (ownDocuments.length < poolSize) ownDocuments.push(await newDocument(ownBase));
    const otherBase = await newKnowledgeBase(otherKey.key);
    const otherDocument = await newDocument(otherBase, otherKey.key);

    /**
     * A message of the target's own making. The campaign fuzzes PUT /v1/account/limits too, and a tiny limit it
     * sets refuses every later message of the account: lifted here when it refuses one of these.
     */
    const sendOwn = async (agentId: string, body: Record<string, unknown>) => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await call(baseUrl, owner, 'POST', `/v1/agents/${agentId}/messages`, body);
        } catch (error) {
          if (attempt === 5 || !String(error).includes('budget_exceeded')) throw error;
          await call(baseUrl, owner, 'PUT', '/v1/account/limits', { spend: {} });
        }
      }
    };
    // A finished run and an hourly task of each own agent, at the agent's position.
    const newRun = async (agentId: string) => (await sendOwn(agentId, { text: 'Fuzz run' })).runId as string;
    const newTask = async (agentId: string) =>
      (
        await call(baseUrl, owner, 'POST', `/v1/agents/${agentId}/tasks`, {
          name: 'Fuzzed',
          instructions: 'Say hello.',
          schedule: { cron: '0 * * * *', timezone: 'UTC' },
        })
      ).id as string;
    // A tool call waiting for approval of each own agent: its math plugin's calculate needs one.
    const newApproval = async (agentId: string) => {
      await call(baseUrl, owner, 'PATCH', `/v1/agents/${agentId}`, {
        plugins: [{ name: 'math', approval: { tools: ['calculate'] } }],
      });
      const paused = await sendOwn(agentId, { text: '/tool calculate {"expression": "1+1"}' });
      return paused.approvals[0].approvalId as string;
    };
    // Eval datasets of each account, one outside the pools that bodies name (never changed), and an eval of each
    // own agent on that one.
    const newEvalDataset = async (key = owner) =>
      (
        await call(baseUrl, key, 'POST', '/v1/eval-datasets', {
          name: 'Fuzzed',
          cases: [{ id: 'hello', messages: ['Hello'], expect: [{ type: 'finishReason', value: 'stop' }] }],
        })
      ).id as string;
    const ownEvalDatasets: string[] = [];
    while (ownEvalDatasets.length < poolSize) ownEvalDatasets.push(await newEvalDataset());
    const otherEvalDataset = await newEvalDataset(otherKey.key);
    const knownEvalDataset = await newEvalDataset();
    const newEval = async (agentId: string) =>
      (await call(baseUrl, owner, 'POST', `/v1/agents/${agentId}/evals`, { datasetId: knownEvalDataset })).id as string;
    const ownRuns: string[] = [];
    const ownTasks: string[] = [];
    const ownApprovals: string[] = [];
    const ownEvals: string[] = [];
    for (const agentId of ownAgents) {
      ownRuns.push(await newRun(agentId));
      ownTasks.push(await newTask(agentId));
      ownApprovals.push(await newApproval(agentId));
      ownEvals.push(await newEval(agentId));
    }
    // An image of the first own agent, stored with its turn: what GET /v1/files/{fileId} serves.
    const onePixelPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
    await call(baseUrl, owner, 'POST', `/v1/agents/${ownAgents[0]}/messages`, {
      text: 'Fuzz image',
      userId: 'fuzz-files',
      attachments: [{ type: 'image', data: onePixelPng }],
    });
    const turns = await call(baseUrl, owner, 'GET', `/v1/agents/${ownAgents[0]}/messages?userId=fuzz-files`);
    const ownFiles = (turns.data as Array<{ attachments?: Array<{ fileId: string }> }>).flatMap(
      (turn) => turn.attachments?.map((attachment) => attachment.fileId) ?? [],
    );

    const pools: Record<IdPool, string[]> = {
      ownAgent: ownAgents,
      otherAccountAgent: [otherAgent],
      deletedAgent: [deleted],
      spareKey: spareKeys,
      otherAccountKey: [otherKey.id],
      ownWebhook: ownWebhooks,
      otherAccountWebhook: [otherWebhook],
      ownDelivery: ownDeliveries,
      ownKnowledgeBase: [ownBase],
      otherAccountKnowledgeBase: [otherBase],
      ownDocument: ownDocuments,
      otherAccountDocument: [otherDocument],
      ownRun: ownRuns,
      ownTask: ownTasks,
      ownApproval: ownApprovals,
      ownFile: ownFiles,
      ownEvalDataset: ownEvalDatasets,
      otherAccountEvalDataset: [otherEvalDataset],
      knownEvalDataset: [knownEvalDataset],
      ownEval: ownEvals,
    };
    return {
      server,
      keys: { owner, otherAccount: otherKey.key, readOnly: readOnly.key, revoked: revoked.key },
      pools,
      bodyLimitBytes: 1_048_576,
      async restoreWebhook(id, deleted) {
        const index = pools.ownWebhook.indexOf(id);
        if (index < 0) return;
        if (!deleted) {
          // A concurrent request may have deleted it meanwhile: then it is replaced like a deleted one.
          const enabled = await call(baseUrl, owner, 'PATCH', `/v1/webhooks/${id}`, { enabled: true }).then(
            () => true,
            () => false,
          );
          if (enabled || pools.ownWebhook[index] !== id) return;
        }
        const webhook = await newWebhook(owner);
        const agent = await newAgent({ name: 'Paused' });
        await call(baseUrl, owner, 'PATCH', `/v1/agents/${agent}`, { status: 'inactive' });
        pools.ownWebhook[index] = webhook;
        pools.ownDelivery[index] = (await call(baseUrl, owner, 'GET', `/v1/webhooks/${webhook}/deliveries`)).data[0].id;
      },
      async replaceAgent(id) {
        const index = pools.ownAgent.indexOf(id);
        if (index < 0) return;
        const agentId = await newAgent();
        pools.ownRun[index] = await newRun(agentId);
        pools.ownTask[index] = await newTask(agentId);
        pools.ownApproval[index] = await newApproval(agentId);
        pools.ownEval[index] = await newEval(agentId);
        pools.ownAgent[index] = agentId;
      },
      async replaceKnowledgeBase(id) {
        if (pools.ownKnowledgeBase[0] !== id) return;
        const base = await newKnowledgeBase();
        const documents: string[] = [];
        while (documents.length < poolSize) documents.push(await newDocument(base));
        pools.ownKnowledgeBase[0] = base;
        pools.ownDocument.splice(0, pools.ownDocument.length, ...documents);
      },
      async replaceTask(id) {
        const index = pools.ownTask.indexOf(id);
        if (index >= 0) pools.ownTask[index] = await newTask(pools.ownAgent[index] as string);
      },
      async replaceEvalDataset(id) {
        const index = pools.ownEvalDataset.indexOf(id);
        if (index >= 0) pools.ownEvalDataset[index] = await newEvalDataset();
      },
      async replaceDocument(id) {
        const index = pools.ownDocument.indexOf(id);
        if (index < 0) return;
        const base = pools.ownKnowledgeBase[0]!;
        try {
          pools.ownDocument[index] = await newDocument(base);
        } catch (error) {
          // A concurrent request deleted the base itself: its replacement (replaceKnowledgeBase) brings new documents.
          if (pools.ownKnowledgeBase[0] !== base || String(error).includes('answered 404')) return;
          throw error;
        }
      },
      async stop() {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
