import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/**
 * The server's side of one POST of the Streamable HTTP transport (MCP
 * 2025-06-18, "Sending Messages to the Server"), stateless: the client's one
 * message goes in, and what the server sends for it comes out, ending with
 * the response to it, for the route to answer as JSON or as an event stream.
 *
 * Written here rather than taken from the SDK (StreamableHTTPServerTransport):
 * the SDK's turns Node's request and response into web Request and Response
 * objects and a ReadableStream (@hono/node-server), parses the message again
 * and checks every message it sends with zod, which was most of what the MCP
 * door cost over the REST reply (bench/README.md, "Doors"). What it checks
 * (Accept, Content-Type, protocol version, a JSON-RPC message) the route has
 * checked already, answering problem+json; and a stateless server has no
 * session, GET stream or resumption for it to keep.
 */
export class RequestTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  // A queue of its own rather than events.on(), which allocates a buffer of 2,048 slots for every iterator.
  readonly #queue: JSONRPCMessage[] = [];
  #ended = false;
  #closed = false;
  #wake: (() => void) | undefined;

  async start(): Promise<void> {}

  /**
   * Hands `message` to the server; yields each message the server sends for it, the response last. Ends early,
   * without a response, when the transport is closed first (the client left, the shutdown deadline passed).
   */
  exchange(message: JSONRPCMessage, extra: MessageExtraInfo): AsyncGenerator<JSONRPCMessage, void, undefined> {
    this.onmessage?.(message, extra);
    return this.#sent();
  }

  async *#sent(): AsyncGenerator<JSONRPCMessage, void, undefined> {
    for (;;) {
      while (this.#queue.length > 0) yield this.#queue.shift()!;
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #push(message: JSONRPCMessage | null): void {
    if (message === null) this.#ended = true;
    else this.#queue.push(message);
    this.#wake?.();
    this.#wake = undefined;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#ended) return;
    this.#push(message);
    // The server's messages are its own (the SDK's Protocol builds them): a response has a result or an error, and
    // answers the one request of this POST, which ends the exchange.
    if ('result' in message || 'error' in message) this.#push(null);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#push(null);
    this.onclose?.();
  }
}
