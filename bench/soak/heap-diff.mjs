// Objects by constructor (node name and type) in two V8 heap snapshots: the kinds whose count or size grew most.
//   node bench/soak/heap-diff.mjs before.heapsnapshot after.heapsnapshot
import fs from 'node:fs';

function tally(file) {
  const snapshot = JSON.parse(fs.readFileSync(file, 'utf8'));
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byKind = new Map();
  const nodes = snapshot.nodes;
  for (let index = 0; index < nodes.length; index += width) {
    const type = types[nodes[index + typeAt]];
    const name =
      type === 'string' || type === 'concatenated string' || type === 'sliced string'
        ? '(string)'
        : snapshot.strings[nodes[index + nameAt]];
    const kind = `${type}:${String(name).slice(0, 60)}`;
    const entry = byKind.get(kind) ?? { count: 0, size: 0 };
    entry.count += 1;
    entry.size += nodes[index + sizeAt];
    byKind.set(kind, entry);
  }
  return byKind;
}

const before = tally(process.argv[2]);
const after = tally(process.argv[3]);
const growth = [...after].map(([kind, entry]) => {
  const earlier = before.get(kind) ?? { count: 0, size: 0 };
  return { kind, count: entry.count - earlier.count, size: entry.size - earlier.size };
});
growth.sort((a, b) => b.size - a.size);
for (const row of growth.slice(0, Number(process.argv[4] ?? 25)))
  console.log(`${String(row.size).padStart(10)} B ${String(row.count).padStart(8)} × ${row.kind}`);
