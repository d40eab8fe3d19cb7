import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  AgentdError,
  createAgentdClient,
  type AgentdClient,
  type MessageEvent,
  type MessageEventType,
} from '../../src/client/index.js';
import { tinyPng } from '../helpers/images.js';
import { eventually } from '../helpers/wait.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';

/** The typed client against a listening agentd: what a program using it sees. */
for (const backend of backends) {
  describe(`typed client on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let baseUrl: string;
    let account: TestAccount;
    let client: AgentdClient;
    /** Paths of the requests `client` sent, to see how many pages it read. */
    const requested: string[] = [];

    before(async () => {
      // Words a few milliseconds apart, so a stream is still running when a test hangs up on it.
      t = await createTestApp({ backend: backend.name, env: { AGENTD_BUILTIN_WORD_DELAY_MS: '5' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      // An account of its own: its list holds exactly the agents these tests create.
      account = await t.newAccount();
      client = createAgentdClient({
        baseUrl,
        apiKey: account.key,
        fetch: (request) => {
          const url = new URL(request.url);
          requested.push(`${request.method} ${url.pathname}${url.search}`);
          return fetch(request);
        },
      });
    });
    after(async () => {
      // Hanging up mid-stream leaves undici (fetch) a spare connection that never sends a request; closing
      // would wait out its keep-alive time-out for it (see test/helpers/message-stream.ts). Every test is done here.
      t?.app.server.closeAllConnections();
      await t?.close();
    });

    async function collect(events: AsyncIterable<MessageEvent>): Promise<MessageEvent[]> {
      const all: MessageEvent[] = [];
      for await (const event of events) all.push(event);
      return all;
    }

    it('walks every agent over several pages by nextCursor', async () => {
      const created = new Set<string>();
      for (let index = 0; index < 45; index += 1) {
        const agent = await client.agents.create({
          name: `Paged ${String(index).padStart(2, '0')}`,
          ...(index % 9 === 0 ? { status: 'inactive' as const } : {}),
        });
        created.add(agent.id);
      }
      requested.length = 0;
      const listed: string[] = [];
      for await (const agent of client.agents.list({ limit: 20 })) listed.push(agent.id);
      assert.equal(listed.length, 45);
      assert.deepEqual(new Set(listed), created);
      const pages = requested.filter((line) => line.startsWith('GET /v1/agents?'));
      assert.equal(pages.length, 3, pages.join('\n'));
      assert.ok(pages.slice(1).every((line) => line.includes('cursor=')));

      const inactive: string[] = [];
      for await (const agent of client.agents.list({ status: 'inactive', limit: 2, sortBy: 'name', order: 'asc' })) {
        assert.equal(agent.status, 'inactive');
        inactive.push(agent.name);
      }
      assert.deepEqual(inactive, ['Paged 00', 'Paged 09', 'Paged 18', 'Paged 27', 'Paged 36']);
    });

    it('stops reading pages when the loop stops', async () => {
      requested.length = 0;
      for await (const agent of client.agents.list({ limit: 5 })) {
        assert.ok(agent.id.startsWith('agt_'));
        break;
      }
      assert.equal(requested.length, 1);
    });

    it('creates, gets and deletes an agent, then answers not_found for it', async () => {
      const created = await client.agents.create({ name: 'Ava', bio: 'Ava checks the client.', expertise: ['tests'] });
      assert.equal(created.name, 'Ava');
      assert.deepEqual(created.bio, ['Ava checks the client.']);
      const fetched = await client.agents.get(created.id);
      assert.deepEqual(fetched, created);
      assert.deepEqual(await client.agents.delete(created.id), { id: created.id, deleted: true });
      const error = await client.agents.get(created.id).then(
        () => assert.fail('a deleted agent was found'),
        (thrown: unknown) => thrown,
      );
      assert.ok(error instanceof AgentdError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 'not_found');
      assert.ok(error.requestId?.startsWith('req_'));
    });

    it('sends an image with a message and downloads the stored file', async () => {
      const agent = await client.agents.create({ name: 'Iris' });
      const png = tinyPng(2, 2);
      for await (const event of client.messages.stream(agent.id, {
        text: 'Look',
        userId: 'client-images',
        attachments: [{ type: 'image', data: png.toString('base64') }],
      })) {
        if (event.type === 'message.completed') assert.match(event.data.text, /PNG image of 2×2 pixels/);
      }
      const history = await t.inject({
        method: 'GET',
        url: `/v1/agents/${agent.id}/messages?userId=client-images`,
        as: account,
      });
      const fileId = history.json().data[1].attachments[0].fileId;
      const file = await client.files.get(fileId);
      assert.equal(file.mediaType, 'image/png');
      assert.deepEqual(Buffer.from(file.bytes), png);
      const missing = await client.files.get('file_01ARZ3NDEKTSV4RRFFQ69G5FAV').catch((thrown: unknown) => thrown);
      assert.ok(missing instanceof AgentdError && missing.status === 404);
    });

    it('throws validation problems with every error and its path', async () => {
      const error = await client.agents.create({ name: '', status: 'error' as 'active' }).then(
        () => assert.fail('an invalid agent was created'),
        (thrown: unknown) => thrown,
      );
      assert.ok(error instanceof AgentdError);
      assert.equal(error.status, 400);
      assert.equal(error.code, 'validation_failed');
      const paths = new Set(error.errors.map((entry) => entry.path));
      assert.deepEqual(paths, new Set(['/body/name', '/body/status']));
    });

    it('throws unauthorized for a wrong key, before any stream begins', async () => {
      const stranger = createAgentdClient({ baseUrl, apiKey: `agd_${'x'.repeat(40)}` });
      const agent = await client.agents.create({ name: 'Ava' });
      await assert.rejects(collect(stranger.messages.stream(agent.id, { text: 'hello' })), (error: unknown) => {
        assert.ok(error instanceof AgentdError);
        assert.equal(error.status, 401);
        assert.equal(error.code, 'unauthorized');
        return true;
      });
      await assert.rejects(collect(client.messages.stream('agt_01JD0000000000000000000000', { text: 'hello' })), {
        name: 'AgentdError',
        code: 'not_found',
      });
    });

    it('streams a reply as typed events in order, the deltas adding up to the completed text', async () => {
      const agent = await client.agents.create({ name: 'Ava', bio: 'Ava answers in a few words.' });
      const events = await collect(client.messages.stream(agent.id, { text: 'Who are you?', userId: 'u1' }));
      const first = events[0];
      const last = events.at(-1);
      assert.equal(first?.type, 'message.started');
      assert.equal(last?.type, 'message.completed');
      if (first?.type !== 'message.started' || last?.type !== 'message.completed') return;
      assert.equal(first.data.agentId, agent.id);
      assert.equal(first.data.userId, 'u1');
      const deltas = events.slice(1, -1);
      assert.ok(deltas.length > 1, 'the builtin model streams word by word');
      let text = '';
      for (const event of deltas) {
        assert.equal(event.type, 'message.delta');
        if (event.type === 'message.delta') {
          assert.equal(event.data.id, first.data.id);
          text += event.data.text;
        }
      }
      assert.equal(last.data.id, first.data.id);
      assert.equal(last.data.text, text);
      assert.equal(last.data.finishReason, 'stop');
    });

    it('streams tool.called and tool.completed for a tool the agent runs', async () => {
      const agent = await client.agents.create({ name: 'Cal', plugins: [{ name: 'math' }] });
      const events = await collect(
        client.messages.stream(agent.id, { text: 'Add these.\n/tool calculate {"expression":"2+2"}' }),
      );
      const types = events.map((event) => event.type).filter((type) => type !== 'message.delta');
      assert.deepEqual(types, [
        'message.started',
        'tool.called',
        'tool.completed',
        'message.completed',
      ] satisfies MessageEventType[]);
      const called = events.find((event) => event.type === 'tool.called');
      const completed = events.find((event) => event.type === 'tool.completed');
      assert.ok(called?.type === 'tool.called' && completed?.type === 'tool.completed');
      assert.equal(called.data.name, 'calculate');
      assert.deepEqual(called.data.input, { expression: '2+2' });
      assert.equal(completed.data.toolCallId, called.data.toolCallId);
      assert.deepEqual(completed.data.output, { expression: '2+2', result: '4' });
      const reply = events.at(-1);
      assert.ok(reply?.type === 'message.completed');
      assert.equal(reply.data.toolCalls.length, 1);
    });

    it('sends a message in the background and follows its run, resuming after a seq', async () => {
      const agent = await client.agents.create({ name: 'Background' });
      const run = await client.messages.background(agent.id, { text: 'tell me something' });
      assert.equal(run.status, 'queued');
      const all = await collect(client.runs.events(agent.id, run.id));
      assert.deepEqual(
        all.map((event) => event.seq),
        all.map((_, index) => index + 1),
      );
      const completed = all.at(-1);
      assert.equal(completed?.type, 'message.completed');
      const rest = await collect(client.runs.events(agent.id, run.id, { after: 2 }));
      assert.deepEqual(rest, all.slice(2));
      const ended = await client.runs.get(agent.id, run.id);
      assert.equal(ended.status, 'completed');
      const listed = [];
      for await (const each of client.runs.list(agent.id, { limit: 1 })) listed.push(each.id);
      assert.deepEqual(listed, [run.id]);
      await assert.rejects(client.runs.cancel(agent.id, run.id), (error: unknown) => {
        assert.ok(error instanceof AgentdError);
        assert.equal(error.code, 'conflict');
        return true;
      });
    });

    it('hangs up when the signal aborts, and the server stores the reply as aborted', async () => {
      const agent = await client.agents.create({ name: 'Ava', bio: 'Ava '.repeat(200) });
      const controller = new AbortController();
      const seen: MessageEventType[] = [];
      await assert.rejects(
        (async () => {
          for await (const event of client.messages.stream(
            agent.id,
            { text: 'Tell me everything about yourself.', userId: 'aborting' },
            { signal: controller.signal },
          )) {
            seen.push(event.type);
            if (event.type === 'message.delta') controller.abort();
          }
        })(),
        { name: 'AbortError' },
      );
      assert.deepEqual(seen, ['message.started', 'message.delta']);
      const stored = await eventually(async () => {
        const { data } = await client.api.GET('/v1/agents/{agentId}/messages', {
          params: { path: { agentId: agent.id }, query: { userId: 'aborting' } },
        });
        const answer = data?.data.find((turn) => turn.role === 'agent');
        return answer ?? null;
      }, 'the aborted reply to be stored');
      assert.equal(stored.finishReason, 'aborted');
    });
  });
}
