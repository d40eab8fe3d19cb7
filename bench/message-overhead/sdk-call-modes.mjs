// What the AI SDK's streamed call costs by itself: the same model call to the
// fake provider (bench/message-overhead/fake-provider.ts, answering at once)
// made through agentd's adapter path (`doStream` over agentd's node:http
// `fetch`, read to its finish) and as a non-streamed `doGenerate`, one call at
// a time in alternating rounds, in this process alone: no server, no agentd.
// The difference is the SDK's per-call stream set-up (a web-stream pipeline
// per call), which a non-streamed reply through agentd pays because agentd
// asks the provider for a stream either way (see "The floor of a non-streamed
// reply" in bench/README.md).
//
//   npm run build && node bench/message-overhead/sdk-call-modes.mjs [calls per round] [rounds]
import { spawn } from 'node:child_process';
import { benchModel } from './sdk-model.mjs';

const callsPerRound = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 20);
const provider = spawn(process.execPath, ['--import', 'tsx', 'bench/message-overhead/fake-provider.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const baseURL = (await new Promise((resolve) => provider.stdout.once('data', (data) => resolve(String(data))))).trim();
const model = benchModel(baseURL);
const prompt = [
  { role: 'system', content: 'You are Bench.' },
  { role: 'user', content: [{ type: 'text', text: 'What pays for gas?' }] },
];

const modes = {
  async doStream() {
    const { stream } = await model.doStream({ prompt, abortSignal: new AbortController().signal });
    const reader = stream.getReader();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done || value.type === 'finish') break;
      if (value.type === 'text-delta') text += value.delta;
    }
    reader.releaseLock();
    return text;
  },
  async doGenerate() {
    const result = await model.doGenerate({ prompt, abortSignal: new AbortController().signal });
    return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  },
};

const timings = Object.fromEntries(Object.keys(modes).map((name) => [name, { wall: [], cpu: 0 }]));
for (let round = 0; round < rounds; round += 1) {
  for (const [name, call] of round % 2 === 0 ? Object.entries(modes) : Object.entries(modes).reverse()) {
    for (let index = 0; index < callsPerRound; index += 1) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const text = await call();
      const wall = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      if (text === '') throw new Error(`${name}: no text`);
      // The first two rounds warm up the code of both.
      if (round >= 2) {
        timings[name].wall.push(wall);
        timings[name].cpu += cpu.user + cpu.system;
      }
    }
  }
}
provider.kill();

const percentile = (sorted, fraction) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
console.log(`node ${process.version}, ${callsPerRound} calls × ${rounds - 2} measured rounds per mode, one at a time`);
console.log('| call | p50 ms | p90 ms | CPU per call (this process) ms |\n|---|---|---|---|');
for (const [name, { wall, cpu }] of Object.entries(timings)) {
  wall.sort((a, b) => a - b);
  const row = [percentile(wall, 0.5), percentile(wall, 0.9), cpu / wall.length / 1000];
  console.log(`| \`${name}\` | ${row.map((value) => value.toFixed(3)).join(' | ')} |`);
}
