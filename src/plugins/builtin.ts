import { a2aPlugin } from './a2a/index.js';
import { clockPlugin } from './clock/clock-plugin.js';
import { evmPlugin } from './evm/evm-plugin.js';
import { httpPlugin } from './http/http-plugin.js';
import { imagesPlugin } from './images/images-plugin.js';
import { knowledgePlugin } from './knowledge/knowledge-plugin.js';
import { mathPlugin } from './math/math-plugin.js';
import { mcpPlugin } from './mcp/index.js';
import { openApiPlugin } from './openapi/index.js';
import type { AnyPluginDefinition } from './plugin.js';

/** The plugins every agentd server offers, in the order GET /v1/plugins lists them. */
export const builtinPlugins: readonly AnyPluginDefinition[] = [
  httpPlugin,
  knowledgePlugin,
  clockPlugin,
  mathPlugin,
  mcpPlugin,
  openApiPlugin,
  evmPlugin,
  a2aPlugin,
  imagesPlugin,
];
