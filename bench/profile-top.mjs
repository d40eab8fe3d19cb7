// Summarises a V8 CPU profile (node --cpu-prof): the frames with the most self
// time, and their share of the samples outside idle time.
//
//   node bench/profile-top.mjs file.cpuprofile [count]
import { readFileSync } from 'node:fs';

const [, , file, count = '25'] = process.argv;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfSamples = new Map();
for (const id of profile.samples) selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);

const frames = new Map();
let busy = 0;
for (const [id, samples] of selfSamples) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  if (functionName === '(idle)' || functionName === '(program)') continue;
  busy += samples;
  const where = url
    ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${lineNumber + 1}`
    : '';
  const label = `${functionName || '(anonymous)'} ${where}`.trim();
  frames.set(label, (frames.get(label) ?? 0) + samples);
}
const top = [...frames].sort((a, b) => b[1] - a[1]).slice(0, Number(count));
console.log('| self % of busy | frame |\n|---:|---|');
for (const [label, samples] of top) console.log(`| ${((samples / busy) * 100).toFixed(1)} | \`${label}\` |`);
