/**
 * The tests' fake OpenAI-compatible provider as a process of its own, for the
 * benchmark and for trying agentd with a provider configured:
 *
 *   node --import tsx bench/message-overhead/fake-provider.ts [port] [tokenDelayMs] [words] [key.pem cert.pem]
 *
 * It prints its base URL (for AGENTD_OPENAI_COMPATIBLE_BASE_URL) and answers
 * every request at once, or with `tokenDelayMs` between streamed words. With
 * a key and certificate it serves https: and offers HTTP/2, as hosted
 * providers do.
 */
import fs from 'node:fs';
import { startFakeOpenAiServer } from '../../test/helpers/fake-openai-server.js';

const [portArgument, delayArgument, wordsArgument, keyPath, certPath] = process.argv.slice(2);
const words = Number(wordsArgument ?? 0);
const server = await startFakeOpenAiServer({
  port: Number(portArgument ?? 0),
  ...(keyPath && certPath
    ? { tls: { key: fs.readFileSync(keyPath, 'utf8'), cert: fs.readFileSync(certPath, 'utf8') } }
    : {}),
});
server.setDefault({
  tokenDelayMs: Number(delayArgument ?? 0),
  ...(words > 0 ? { reply: Array.from({ length: words }, (_, index) => `word${index}`).join(' ') } : {}),
});
// Recorded requests would grow without bound in a long run.
setInterval(() => server.requests.splice(0), 1000).unref();
process.stdout.write(`${server.baseUrl}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
