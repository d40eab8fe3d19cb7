// Starts the ElizaOS server (@elizaos/server, installed in this folder only) on
// its default database (PGlite in DATA_DIR), listening on PORT, for
// bench/peers/elizaos/run.ts. ELIZA_SERVER_AUTH_TOKEN, when set, is the key its
// API checks (the X-API-KEY header), as agentd checks its bearer key.
//
// Its API router limits every client IP to 1,000 requests per 15 minutes
// (express-rate-limit, a constant in src/middleware/rate-limit.ts with no
// setting to change it). A benchmark from one address would measure 429s after
// the first thousand requests, so this script loads a copy of the published
// bundle with that one number raised, and refuses to start if the bundle does
// not contain exactly that text (another version must be looked at again).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = path.join(here, 'node_modules/@elizaos/server/dist/index.js');
const limited =
  'var createApiRateLimit = () => {\n  return rate_limit_default({\n    windowMs: 15 * 60 * 1000,\n    max: 1000,';
const source = fs.readFileSync(bundle, 'utf8');
if (source.split(limited).length !== 2) throw new Error(`${bundle}: the API rate limit is not where 1.7.2 has it`);
const unlimitedBundle = path.join(path.dirname(bundle), 'index.api-limit-lifted.js');
fs.writeFileSync(unlimitedBundle, source.replace(limited, limited.replace('max: 1000,', 'max: 1_000_000_000,')));

const { AgentServer } = await import(pathToFileURL(unlimitedBundle).href);
const server = new AgentServer();
await server.start({ dataDir: process.env.DATA_DIR, port: Number(process.env.PORT) });
process.stdout.write(`listening on ${process.env.PORT}\n`);
const stop = async () => {
  await server.stop?.();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
