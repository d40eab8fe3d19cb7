/**
 * Prompt size side by side: one conversation of short messages (one user, one
 * thread) through agentd, Mastra and ElizaOS, each on its own defaults, all on
 * one fake OpenAI-compatible provider that records every model call
 * (recording-provider.ts). Reported per system: model calls per message by kind
 * (reply, memory or reflection extraction, should-respond…), and characters of
 * message content per model call at message 20 and at message 100 and on
 * average over every call.
 *
 *   npx tsc -p tsconfig.build.json && npm run bench:peer-prompt-size -- [--messages 100] [--reply-words 20]
 *     [--systems agentd,mastra,elizaos] [--install-dir /tmp/agentd-peers] [--out calls.json]
 *
 * agentd runs as users run it (dist/main.js serve, SQLite in a temporary
 * directory) with its OpenAI provider pointed at the fake. The peers are
 * installed from the npm registry into `--install-dir` (outside the
 * repository; their package.json and start script are copied there from
 * bench/peers/<peer>/, `npm install --ignore-scripts` runs when the installed
 * versions are not those), and started there:
 * - Mastra: its generated HTTP server (bench/peers/mastra/server.mjs), one agent
 *   with `new Memory()` (its defaults), `POST /api/agents/:id/generate` with
 *   `memory: { thread, resource }`;
 * - ElizaOS: `@elizaos/server` (bench/peers/elizaos/server.mjs) with its SQL,
 *   OpenAI and bootstrap plugins, one agent created through its API, one
 *   session (`POST /api/messaging/sessions`), messages through the session's
 *   default transport, as its web client sends them; the reply is read back from
 *   the session's messages.
 *
 * All three get the same character (a name, two lines of bio, traits, a style)
 * and the same model name (`--model`, gpt-4o-mini: ElizaOS's default small
 * model), since agentd and the peers size their history windows by it. After
 * each reply the bench waits until the provider has been quiet for
 * `--quiet-ms`, so each message's background calls (memory, reflection) are
 * counted for it and not for the next. Requests go to loopback only.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { unusedPort } from '../../test/helpers/network.js';
import { assertBuilt, mainScript, serverNodeFlags } from '../../test/helpers/server-process.js';
import {
  startRecordingProvider,
  type CallKind,
  type RecordedCall,
  type RecordingProvider,
} from './recording-provider.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '100' },
    'reply-words': { type: 'string', default: '20' },
    systems: { type: 'string', default: 'agentd,mastra,elizaos' },
    'install-dir': { type: 'string', default: path.join(os.tmpdir(), 'agentd-peers') },
    model: { type: 'string', default: 'gpt-4o-mini' },
    'quiet-ms': { type: 'string', default: '600' },
    at: { type: 'string', default: '20,100' },
    out: { type: 'string' },
    'agentd-root': { type: 'string' },
  },
});
const messageCount = Number(values.messages);
const systems = values.systems.split(',');
const installDirectory = values['install-dir'];
const modelName = values.model;
const quietMs = Number(values['quiet-ms']);
const checkpoints = values.at.split(',').map(Number);
const here = import.meta.dirname ?? 'bench/peers';
const replyTimeoutMs = 120_000;

const character = {
  name: 'Ava',
  bio: ['Ava is a travel assistant for Portugal.', 'She answers in short, friendly sentences.'],
  traits: ['curious', 'precise'],
  style: ['short sentences'],
};

const places = ['Lisbon', 'Porto', 'Faro', 'Braga', 'Coimbra', 'Evora'];
const topics = ['ferry', 'bakery', 'museum', 'tram', 'market', 'harbour', 'castle', 'beach', 'train', 'library'];
const smallTalk = ['Hi!', 'thanks', 'ok 👍', 'Thank you so much', 'cool', 'Good morning!'];

/** The i-th user message (0-based): a fact every 10th, small talk every 6th, a short question otherwise. */
function userMessage(index: number): string {
  if (index === 0) return 'Hello, my name is Zephyrine and I am planning a week away.';
  if (index === messageCount - 1) return 'Do you remember my name?';
  if (index % 10 === 5) return `We have moved: I live in ${places[((index / 10) % places.length) | 0]} now.`;
  if (index % 6 === 3) return smallTalk[((index / 6) % smallTalk.length) | 0] as string;
  return `What about the ${topics[index % topics.length]} near the old town (question ${index})?`;
}

/**
 * Each kind of call, told by its instructions, and answered as its caller parses it: agentd's memory tasks
 * want JSON or a line, ElizaOS's templates an XML block. Facts are answered empty for both systems that ask.
 */
const kinds: CallKind[] = [
  {
    kind: 'memory-facts',
    matches: (text) => text.startsWith('agentd-memory-task: facts'),
    answer: () => '{"facts":[]}',
  },
  {
    kind: 'memory-summary',
    matches: (text) => text.startsWith('agentd-memory-task: summary'),
    answer: () => 'Zephyrine is planning a week away and asks about the towns of Portugal.',
  },
  {
    kind: 'should-respond',
    matches: (text) => text.startsWith('<task>Decide on behalf of'),
    answer: () =>
      '<response><name>Ava</name><reasoning>A direct message to me.</reasoning><action>RESPOND</action></response>',
  },
  {
    kind: 'reply',
    matches: (text) => text.startsWith('<task>Generate dialog and actions for the character'),
    answer: (words) =>
      `<response><thought>Answer briefly.</thought><actions>REPLY</actions><providers></providers><text>${words}</text></response>`,
  },
  {
    kind: 'reply-action',
    matches: (text) => text.startsWith('# Task: Generate dialog for the character'),
    answer: (words) => `<response><thought>Answer briefly.</thought><text>${words}</text></response>`,
  },
  {
    kind: 'reflection',
    matches: (text) => text.startsWith('# Task: Generate Agent Reflection'),
    answer: () =>
      '<response><thought>The conversation goes well.</thought><facts></facts><relationships></relationships></response>',
  },
  {
    kind: 'title',
    matches: (text) => /generate a (short )?title/i.test(text.slice(0, 400)),
    answer: () => 'A week in Portugal',
  },
];

/** Installs a peer's pinned packages outside the repository, unless that folder already has exactly them. */
function installPeer(peer: 'mastra' | 'elizaos'): string {
  const directory = path.join(installDirectory, peer);
  fs.mkdirSync(directory, { recursive: true });
  const manifest = fs.readFileSync(path.join(here, peer, 'package.json'), 'utf8');
  const installedManifest = path.join(directory, 'package.json');
  const current = fs.existsSync(installedManifest) ? fs.readFileSync(installedManifest, 'utf8') : '';
  if (current !== manifest || !fs.existsSync(path.join(directory, 'node_modules'))) {
    fs.writeFileSync(installedManifest, manifest);
    process.stderr.write(`installing ${peer} into ${directory}…\n`);
    // Install scripts held back: nothing the measured paths load needs to compile at install.
    execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: directory,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  fs.copyFileSync(path.join(here, peer, 'server.mjs'), path.join(directory, 'server.mjs'));
  return directory;
}

async function startPeer(
  directory: string,
  env: Record<string, string>,
  logFile: string,
): Promise<{ process: ChildProcess; url: string }> {
  const port = await unusedPort();
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['server.mjs'], {
    cwd: directory,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', log],
  });
  let output = '';
  for await (const chunk of child.stdout!) {
    output += String(chunk);
    if (output.includes(`listening on ${port}`)) break;
  }
  if (!output.includes(`listening on ${port}`))
    throw new Error(`${directory} did not start:\n${output}\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
  child.stdout!.resume();
  return { process: child, url: `http://127.0.0.1:${port}` };
}

async function stopPeer(peer: { process: ChildProcess } | null) {
  if (peer === null || peer.process.exitCode !== null) return;
  peer.process.kill('SIGTERM');
  await Promise.race([once(peer.process, 'exit'), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (peer.process.exitCode === null) peer.process.kill('SIGKILL');
}

async function send(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const response = await fetch(url, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(replyTimeoutMs),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 500)}`);
  return text === '' ? null : JSON.parse(text);
}

/** Sends every message of the conversation with `sendOne`, each counted for its number, background work included. */
async function converse(
  fake: RecordingProvider,
  system: string,
  sendOne: (text: string, index: number) => Promise<void>,
) {
  for (let index = 0; index < messageCount; index += 1) {
    fake.attribute(system, index + 1);
    await sendOne(userMessage(index), index);
    await fake.whenQuiet(quietMs);
    if ((index + 1) % 20 === 0) process.stderr.write(`  ${system}: ${index + 1} messages\n`);
  }
}

/**
 * agentd's `serve` from this checkout's dist/, or from the build of another checkout (`--agentd-root`, e.g. a
 * commit exported with `git archive` and built there), so that a measurement names the commit it measured.
 */
async function startAgentd(
  env: Record<string, string>,
  logFile: string,
): Promise<{ process: ChildProcess; url: string }> {
  const root = values['agentd-root'];
  if (root === undefined) assertBuilt();
  const script = root === undefined ? mainScript : path.join(root, 'dist', 'main.js');
  const port = await unusedPort();
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [...serverNodeFlags, script, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`agentd exited (${child.exitCode}):\n${fs.readFileSync(logFile, 'utf8')}`);
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { process: child, url };
    if (Date.now() > deadline)
      throw new Error(`agentd did not start within 60 s:\n${fs.readFileSync(logFile, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function runAgentd(fake: RecordingProvider, dataDir: string) {
  const key = generateApiKey();
  let agentd: { process: ChildProcess; url: string } | null = null;
  try {
    agentd = await startAgentd(
      {
        AGENTD_DATA_DIR: path.join(dataDir, 'agentd'),
        AGENTD_BOOTSTRAP_KEY: key,
        AGENTD_RATE_LIMITS: 'off',
        LOG_LEVEL: 'warn',
        OPENAI_API_KEY: 'sk-bench-not-a-key',
        OPENAI_BASE_URL: fake.baseUrl,
        AGENTD_DEFAULT_MODEL: `openai/${modelName}`,
      },
      path.join(dataDir, 'agentd.log'),
    );
    const headers = { authorization: `Bearer ${key}` };
    const agent = await send(`${agentd.url}/v1/agents`, 'POST', headers, {
      name: character.name,
      bio: character.bio,
      personality: { traits: character.traits, style: character.style },
    });
    await converse(fake, 'agentd', async (text) => {
      await send(`${agentd!.url}/v1/agents/${agent.id}/messages`, 'POST', headers, { text, userId: 'bench-user' });
    });
  } finally {
    await stopPeer(agentd);
  }
}

async function runMastra(fake: RecordingProvider, dataDir: string) {
  const directory = installPeer('mastra');
  const mastraData = path.join(dataDir, 'mastra');
  fs.mkdirSync(mastraData, { recursive: true });
  let mastra: { process: ChildProcess; url: string } | null = null;
  try {
    mastra = await startPeer(
      directory,
      {
        HOME: mastraData,
        DATA_DIR: mastraData,
        PROVIDER_BASE_URL: fake.baseUrl,
        MODEL: modelName,
        MASTRA_TELEMETRY_DISABLED: '1',
        MASTRA_OFFLINE: '1',
        AGENT_JSON: JSON.stringify({
          id: 'ava',
          name: character.name,
          // Mastra's agent has one instructions text: the same character, written out.
          instructions:
            `You are ${character.name}. ${character.bio.join(' ')} ` +
            `Traits: ${character.traits.join(', ')}. Style: ${character.style.join(', ')}.`,
        }),
      },
      path.join(dataDir, 'mastra.log'),
    );
    const memory = { thread: 'bench-thread', resource: 'bench-user' };
    await converse(fake, 'mastra', async (text) => {
      await send(
        `${mastra!.url}/api/agents/ava/generate`,
        'POST',
        {},
        { messages: [{ role: 'user', content: text }], memory },
      );
    });
  } finally {
    await stopPeer(mastra);
  }
}

async function runElizaos(fake: RecordingProvider, dataDir: string) {
  const directory = installPeer('elizaos');
  const elizaData = path.join(dataDir, 'elizaos');
  fs.mkdirSync(elizaData, { recursive: true });
  let eliza: { process: ChildProcess; url: string } | null = null;
  try {
    eliza = await startPeer(
      directory,
      {
        HOME: elizaData,
        DATA_DIR: path.join(elizaData, 'pglite'),
        LOG_LEVEL: 'error',
        ELIZA_UI_ENABLE: 'false',
        OPENAI_API_KEY: 'sk-bench-not-a-key',
        OPENAI_BASE_URL: fake.baseUrl,
      },
      path.join(dataDir, 'elizaos.log'),
    );
    const api = `${eliza.url}/api`;
    const created = await send(
      `${api}/agents`,
      'POST',
      {},
      {
        characterJson: {
          name: character.name,
          bio: character.bio,
          adjectives: character.traits,
          style: { all: character.style, chat: [], post: [] },
          plugins: ['@elizaos/plugin-sql', '@elizaos/plugin-openai', '@elizaos/plugin-bootstrap'],
        },
      },
    );
    const agentId: string = created.data.id;
    await send(`${api}/agents/${agentId}/start`, 'POST', {});
    const session = await send(`${api}/messaging/sessions`, 'POST', {}, { agentId, userId: randomUUID() });
    const messagesUrl = `${api}/messaging/sessions/${session.sessionId}/messages`;
    const answered = new Set<string>();
    await converse(fake, 'elizaos', async (text) => {
      await send(messagesUrl, 'POST', {}, { content: text });
      // The default transport answers at once; the reply comes back through the server's message bus.
      const deadline = Date.now() + replyTimeoutMs;
      for (;;) {
        const listed = await send(`${messagesUrl}?limit=10`, 'GET', {});
        const replies = (listed.messages as Array<{ id: string; authorId: string }>).filter(
          (message) => message.authorId === agentId && !answered.has(message.id),
        );
        if (replies.length > 0) {
          for (const reply of replies) answered.add(reply.id);
          return;
        }
        if (Date.now() > deadline) throw new Error(`ElizaOS did not reply to "${text}" within ${replyTimeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
  } finally {
    await stopPeer(eliza);
  }
}

const runners: Record<string, (fake: RecordingProvider, dataDir: string) => Promise<void>> = {
  agentd: runAgentd,
  mastra: runMastra,
  elizaos: runElizaos,
};

const format = (value: number) => Math.round(value).toLocaleString('en-US');
const mean = (numbers: number[]) =>
  numbers.length === 0 ? 0 : numbers.reduce((sum, n) => sum + n, 0) / numbers.length;

function describeCalls(calls: RecordedCall[]): string {
  if (calls.length === 0) return '—';
  const byKind = new Map<string, number[]>();
  for (const call of calls) byKind.set(call.kind, [...(byKind.get(call.kind) ?? []), call.characters]);
  return [...byKind].map(([kind, sizes]) => `${kind} ${sizes.map(format).join(' + ')}`).join('; ');
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-peer-prompt-size-'));
const fake = await startRecordingProvider({ kinds, replyWords: Number(values['reply-words']) });
try {
  for (const system of systems) {
    const runner = runners[system];
    if (!runner) throw new Error(`unknown system ${system}: agentd, mastra or elizaos`);
    process.stderr.write(`${system}…\n`);
    await runner(fake, dataDir);
  }
} finally {
  await fake.close();
  if (values.out) fs.writeFileSync(values.out, JSON.stringify({ calls: fake.calls, embeddings: fake.embeddingCalls }));
}

const lines = [
  `\n${messageCount} messages, one user, one thread; replies of ${values['reply-words']} words; model name ${modelName}; ` +
    `Node ${process.version}; ${new Date().toISOString()}`,
  `| system | model calls / message (by kind) | embedding calls / message | ${checkpoints
    .map((at) => `prompt characters per call at message ${at}`)
    .join(' | ')} | mean per call, all calls | mean per reply call | characters per user message |`,
  `|---|---|---|${checkpoints.map(() => '---|').join('')}---|---|---|`,
];
for (const system of systems) {
  const calls = fake.calls.filter((call) => call.system === system);
  const kindsSeen = [...new Set(calls.map((call) => call.kind))];
  const perKind = kindsSeen
    .map((kind) => `${kind} ${(calls.filter((call) => call.kind === kind).length / messageCount).toFixed(2)}`)
    .join(', ');
  const embeddings = fake.embeddingCalls.filter((call) => call.system === system).length;
  const atCheckpoints = checkpoints.map((at) => describeCalls(calls.filter((call) => call.message === at)));
  const replies = calls.filter((call) => call.kind === 'reply');
  const total = calls.reduce((sum, call) => sum + call.characters, 0);
  lines.push(
    `| ${system} | ${(calls.length / messageCount).toFixed(2)} (${perKind}) | ${(embeddings / messageCount).toFixed(2)} | ` +
      `${atCheckpoints.join(' | ')} | ${format(mean(calls.map((call) => call.characters)))} | ` +
      `${format(mean(replies.map((call) => call.characters)))} | ${format(total / messageCount)} |`,
  );
}
console.log(lines.join('\n'));
fs.rmSync(dataDir, { recursive: true, force: true });
