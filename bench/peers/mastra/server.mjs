// Starts Mastra's HTTP server as `mastra build` generates it (createNodeServer
// from @mastra/deployer/server, after storage.init()), with one agent on its
// defaults: Memory() with no options (the last 10 messages; semantic recall,
// working memory and observational memory off), LibSQL storage in DATA_DIR,
// its model an OpenAI-compatible provider at PROVIDER_BASE_URL. Agents are
// defined in code in Mastra; AGENT_JSON gives this one its name and instructions.
// Run from the folder it is installed in (bench/peers/prompt-size.ts copies it
// there), so that its packages resolve.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { createNodeServer } from '@mastra/deployer/server';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';

const character = JSON.parse(process.env.AGENT_JSON);
const provider = createOpenAICompatible({ name: 'bench', baseURL: process.env.PROVIDER_BASE_URL, apiKey: 'bench' });
const storage = new LibSQLStore({ id: 'bench', url: `file:${process.env.DATA_DIR}/mastra.db` });
const agent = new Agent({
  id: character.id,
  name: character.name,
  instructions: character.instructions,
  model: provider.chatModel(process.env.MODEL ?? 'bench-model'),
  memory: new Memory(),
});
const mastra = new Mastra({
  agents: { [character.id]: agent },
  storage,
  server: { port: Number(process.env.PORT), host: '127.0.0.1' },
});
await storage.init();
await createNodeServer(mastra, { tools: {}, studio: false });
process.stdout.write(`listening on ${process.env.PORT}\n`);
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
