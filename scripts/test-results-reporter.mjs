// A node:test reporter that writes one JSON line per top-level test (suite) of each file: its file, name and
// seconds. scripts/run-tests.mjs reads it for the list of the slowest suites and the time each file takes.
export default async function* testResults(source) {
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    const seconds = (event.data.details?.duration_ms ?? 0) / 1000;
    yield `${JSON.stringify({ file: event.data.file ?? null, name: event.data.name, seconds })}\n`;
  }
}
