import { performance } from 'node:perf_hooks';
import { sendStreamedMessage } from '../../test/helpers/message-stream.js';
import type { TrafficTally } from './traffic-tally.js';

/** The three kinds of agent the soak talks to: the offline model, the fake provider, and tools through the math plugin. */
export type AgentKind = 'builtin' | 'provider' | 'tools';

interface OwnAgent {
  id: string;
  kind: AgentKind;
  status: 'active' | 'inactive';
}

export interface TrafficOptions {
  baseUrl: string;
  key: string;
  /** The fake provider's model, as the server names it (`openai-compatible/...`). */
  providerModel: { provider: string; name: string };
  tally: TrafficTally;
  /** The client stops starting operations at this time (ms since the epoch). */
  until: number;
  /** A pause between operations, so a few clients load the server without taking both cores from everything else. */
  pauseMs: number;
}

const users = ['reader-a', 'reader-b', 'reader-c'];
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const contract503 = new Set(['agent_unavailable', 'provider_unavailable']);

/**
 * One client's mixed traffic until `until`: creates, lists (by page and by
 * cursor), gets, merge patches, deletes, messages plain and streamed to each
 * kind of agent, tool calls, history reads, forgetting a conversation, and
 * streams the client hangs up on after the first words. Each client works
 * only on agents it created, so every answer has one right status.
 */
export async function runTrafficClient(options: TrafficOptions, clientIndex: number): Promise<void> {
  const { baseUrl, key, tally } = options;
  const agents: OwnAgent[] = [];
  let number = 0;

  async function request(operation: string, method: string, path: string, body?: unknown, expected = 200) {
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      text = await response.text();
    } catch (error) {
      tally.record(operation, 'error', performance.now() - started);
      tally.problem(`${operation}: ${(error as Error).message}`);
      return null;
    }
    tally.record(operation, response.status, performance.now() - started);
    const parsed = text === '' ? null : JSON.parse(text);
    if (response.status !== expected) {
      const contract = response.status === 503 && contract503.has(parsed?.code);
      if (!contract) tally.problem(`${operation} ${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
      return null;
    }
    return parsed;
  }

  const messageText = (agent: OwnAgent) =>
    agent.kind === 'tools'
      ? `Please add these.\n/tool calculate {"expression":"2+2"}`
      : `Question ${(number += 1)} from client ${clientIndex}: what do you know?`;

  function checkReply(operation: string, agent: OwnAgent, reply: { text?: string } | null) {
    if (reply === null) return;
    if (agent.kind === 'tools' && !/calculate returned .*"result":"4"/.test(reply.text ?? '')) {
      tally.problem(`${operation}: the tool's result is missing from ${JSON.stringify(reply.text).slice(0, 300)}`);
    }
  }

  async function create() {
    const kind = pick<AgentKind>(['builtin', 'provider', 'tools']);
    const name = `soak-${clientIndex}-${(number += 1)}`;
    const body: Record<string, unknown> = {
      name,
      bio: [`${name} is an agent of the soak run.`],
      knowledge: [`The code of ${name} is ${number}.`, 'Harbors are quiet at night.'],
      metadata: { client: String(clientIndex) },
    };
    if (kind === 'provider') body.model = options.providerModel;
    else body.model = { provider: 'builtin', name: 'echo' };
    if (kind === 'tools') body.plugins = [{ name: 'math', enabled: true, config: {}, secrets: {} }];
    const agent = await request('create', 'POST', '/v1/agents', body, 201);
    if (agent !== null) agents.push({ id: agent.id, kind, status: 'active' });
  }

  async function list() {
    const sortBy = pick(['createdAt', 'name', 'status']);
    const page = await request('list', 'GET', `/v1/agents?limit=20&sortBy=${sortBy}&order=${pick(['asc', 'desc'])}`);
    const cursor = page?.pagination?.nextCursor;
    if (cursor)
      await request('list', 'GET', `/v1/agents?limit=20&sortBy=${sortBy}&cursor=${encodeURIComponent(cursor)}`);
  }

  async function patch(agent: OwnAgent) {
    const body: Record<string, unknown> = { bio: [`Patched ${(number += 1)}.`], metadata: { step: String(number) } };
    if (Math.random() < 0.3) body.knowledge = [`Fact ${number}: the tide is ${number % 7} metres.`];
    // Paused agents come back on their next patch, so most of the pool stays able to answer.
    const status = agent.status === 'inactive' || Math.random() >= 0.1 ? 'active' : 'inactive';
    if (status !== agent.status) body.status = status;
    if ((await request('patch', 'PATCH', `/v1/agents/${agent.id}`, body)) !== null) agent.status = status;
  }

  async function remove(agent: OwnAgent) {
    agents.splice(agents.indexOf(agent), 1);
    await request('delete', 'DELETE', `/v1/agents/${agent.id}`);
  }

  async function message(agent: OwnAgent) {
    const operation = `message ${agent.kind}`;
    const reply = await request(operation, 'POST', `/v1/agents/${agent.id}/messages`, {
      text: messageText(agent),
      userId: pick(users),
    });
    checkReply(operation, agent, reply);
  }

  /** A streamed message read to its end, or (`hangUpAfterFirstDelta`) abandoned once the first words arrived. */
  async function streamedMessage(agent: OwnAgent, hangUpAfterFirstDelta: boolean) {
    const operation = hangUpAfterFirstDelta ? `hang-up ${agent.kind}` : `stream ${agent.kind}`;
    const started = performance.now();
    try {
      const stream = await sendStreamedMessage(baseUrl, key, agent.id, {
        text: messageText(agent),
        userId: pick(users),
      });
      if (stream.status !== 200) {
        tally.record(operation, stream.status, performance.now() - started);
        if (!(stream.status === 503 && contract503.has(stream.problem?.code ?? ''))) {
          tally.problem(`${operation}: ${stream.status} ${JSON.stringify(stream.problem)}`);
        }
        return;
      }
      for (let event = await stream.events!.next(); event !== null; event = await stream.events!.next()) {
        if (hangUpAfterFirstDelta && event.event === 'message.delta') {
          stream.hangUp();
          tally.record(operation, 200, performance.now() - started);
          return;
        }
        if (event.event === 'message.completed') {
          tally.record(operation, 200, performance.now() - started);
          checkReply(operation, agent, event.data);
          return;
        }
        if (event.event === 'message.failed') {
          tally.record(operation, 'failed', performance.now() - started);
          tally.problem(`${operation}: message.failed ${JSON.stringify(event.data)}`);
          return;
        }
      }
      tally.record(operation, 'cut-off', performance.now() - started);
      tally.problem(`${operation}: the stream ended before message.completed`);
    } catch (error) {
      tally.record(operation, 'error', performance.now() - started);
      tally.problem(`${operation}: ${(error as Error).message}`);
    }
  }

  async function history(agent: OwnAgent) {
    await request('history', 'GET', `/v1/agents/${agent.id}/messages?userId=${pick(users)}&limit=20`);
  }

  async function forget(agent: OwnAgent) {
    await request('forget', 'DELETE', `/v1/agents/${agent.id}/conversations?userId=${pick(users)}`);
  }

  while (Date.now() < options.until) {
    const active = agents.filter((agent) => agent.status === 'active');
    const roll = Math.random();
    // A pool of about 6–12 agents per client: created and deleted all the time, so nothing only accumulates.
    if (agents.length < 6 || active.length === 0 || (roll < 0.06 && agents.length < 12)) await create();
    else if (roll < 0.1) await remove(pick(agents));
    else if (roll < 0.18) await list();
    else if (roll < 0.3) await request('get', 'GET', `/v1/agents/${pick(agents).id}`);
    else if (roll < 0.37) await patch(pick(agents));
    else if (roll < 0.57) await message(pick(active));
    else if (roll < 0.77) await streamedMessage(pick(active), false);
    else if (roll < 0.83) await streamedMessage(pick(active), true);
    else if (roll < 0.97) await history(pick(agents));
    else await forget(pick(agents));
    if (options.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
  // What the soak created is deleted at the end, which is traffic too and leaves the server as it began.
  for (const agent of [...agents]) await remove(agent);
}
