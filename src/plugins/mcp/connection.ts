import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Logger } from 'pino';
import type { FetchFunction } from '../plugin.js';

export interface McpConnectionOptions {
  url: URL;
  headers: Record<string, string>;
  fetch: FetchFunction;
  /** Bounds connecting and ending a session, as it bounds each call. */
  timeoutMs: number;
  logger: Logger;
}

interface Session {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

const clientInfo = { name: 'agentd', version: '0.1.0' };

/**
 * One agent's link to one MCP server. It connects on first use and again on
 * the first use after `discard`, so a server that restarted or was briefly
 * unreachable is used again without the agent being changed.
 */
export class McpConnection {
  #current: Promise<Session> | undefined;
  #closed = false;

  constructor(private readonly options: McpConnectionOptions) {}

  client(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error('the connection to the MCP server was closed'));
    if (!this.#current) {
      const connecting = this.#connect();
      this.#current = connecting;
      // A failed attempt is not kept, so the next call tries again.
      connecting.catch(() => {
        if (this.#current === connecting) this.#current = undefined;
      });
    }
    return this.#current.then((session) => session.client);
  }

  /** Lets go of `client` if it is still the one in use, so the next call connects afresh. */
  async discard(client: Client): Promise<void> {
    const current = this.#current;
    if (!current) return;
    const session = await current.catch(() => undefined);
    if (session?.client !== client || this.#current !== current) return;
    this.#current = undefined;
    await this.#end(session);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#current;
    this.#current = undefined;
    const session = await current?.catch(() => undefined);
    if (session) await this.#end(session);
  }

  async #connect(): Promise<Session> {
    const { url, headers, fetch, timeoutMs, logger } = this.options;
    const transport = new StreamableHTTPClientTransport(url, { fetch, requestInit: { headers } });
    const client = new Client(clientInfo, { capabilities: {} });
    // The transport reports failures of its background event stream here; calls report their own.
    client.onerror = (error) => logger.debug({ err: error }, 'mcp transport error');
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return { client, transport };
  }

  /**
   * Ends the session on the server (MCP asks clients to send DELETE when done)
   * then closes locally. The DELETE is bounded: a server that no longer
   * answers must not hold up an agent's update or deletion; closing aborts it.
   */
  async #end({ client, transport }: Session): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.options.timeoutMs);
    });
    await Promise.race([transport.terminateSession().catch(() => undefined), bound]);
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}
