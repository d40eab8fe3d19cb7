// Compares two V8 CPU profiles (node --cpu-prof) of the same work done by two
// builds: the self time of each frame per unit of work (a message), and the
// frames whose time differs most, then the same by where the code lives (a
// package of node_modules, a file of agentd's dist/, Node's internals).
//
//   node bench/profile-diff.mjs before.cpuprofile after.cpuprofile [units] [count]
//
// `units` (default 1) divides every figure: the messages each build served.
import { readFileSync } from 'node:fs';

const [, , beforeFile, afterFile, unitsArgument = '1', countArgument = '30'] = process.argv;
if (!beforeFile || !afterFile) throw new Error('usage: profile-diff.mjs before.cpuprofile after.cpuprofile [units]');
const units = Number(unitsArgument);
const count = Number(countArgument);

const where = (url) =>
  url
    .replace(/^.*node_modules\//, '')
    .replace(/^file:\/\/.*\/dist\//, 'dist/')
    .replace(/^node:/, 'node:');

/** Self microseconds per unit by frame and by place, from a profile's samples and their time deltas. */
function selfTimes(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const frames = new Map();
  const places = new Map();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const microseconds = profile.timeDeltas[index + 1] ?? 0;
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)' || functionName === '(program)') return;
    busy += microseconds;
    const place = url ? where(url) : '(native)';
    const frame = `${functionName || '(anonymous)'} ${url ? `${place}:${lineNumber + 1}` : ''}`.trim();
    const group = url
      ? url.includes('node_modules/')
        ? place.split('/')[0].startsWith('@')
          ? place.split('/').slice(0, 2).join('/')
          : place.split('/')[0]
        : place.replace(/:\d+$/, '')
      : functionName.startsWith('(')
        ? functionName
        : '(native)';
    frames.set(frame, (frames.get(frame) ?? 0) + microseconds / units);
    places.set(group, (places.get(group) ?? 0) + microseconds / units);
  });
  return { frames, places, busy: busy / units };
}

const before = selfTimes(beforeFile);
const after = selfTimes(afterFile);

function table(title, left, right) {
  const keys = new Set([...left.keys(), ...right.keys()]);
  const rows = [...keys]
    .map((key) => ({ key, before: left.get(key) ?? 0, after: right.get(key) ?? 0 }))
    .map((row) => ({ ...row, difference: row.after - row.before }))
    .sort((a, b) => Math.abs(b.difference) - Math.abs(a.difference))
    .slice(0, count);
  console.log(`\n${title}\n| µs per unit: before | after | difference | |\n|---:|---:|---:|---|`);
  for (const row of rows) {
    const sign = row.difference >= 0 ? '+' : '−';
    console.log(
      `| ${row.before.toFixed(1)} | ${row.after.toFixed(1)} | ${sign}${Math.abs(row.difference).toFixed(1)} | \`${row.key}\` |`,
    );
  }
}

console.log(
  `busy (not idle) µs per unit: before ${before.busy.toFixed(1)}, after ${after.busy.toFixed(1)}, ` +
    `difference ${(after.busy - before.busy).toFixed(1)}`,
);
table('By place (a package, a file of dist/, or native code):', before.places, after.places);
table('By frame (self time):', before.frames, after.frames);
