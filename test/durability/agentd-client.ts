import { sendStreamedMessage } from '../helpers/message-stream.js';

/** A request whose answer never came in full: the server was killed while it ran. */
export class Unanswered extends Error {}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** The HTTP calls of the load and the checks, against one running server. */
export class AgentdClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
  ) {}

  /** Resolves only once the whole body has arrived: that is when a write counts as acknowledged. */
  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.key}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
    } catch (error) {
      throw new Unanswered(`${method} ${path}: ${(error as Error).message}`);
    }
  }

  /** A file's bytes (not JSON): the status and how many bytes came. */
  async download(path: string): Promise<{ status: number; bytes: number }> {
    try {
      const response = await fetch(`${this.baseUrl}${path}`, { headers: { authorization: `Bearer ${this.key}` } });
      return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
    } catch (error) {
      throw new Unanswered(`GET ${path}: ${(error as Error).message}`);
    }
  }

  /** A streamed message: the `message.completed` reply, or Unanswered when the stream broke off first. */
  async streamedMessage(agentId: string, body: { text: string; userId: string }): Promise<Answer> {
    let message;
    try {
      message = await sendStreamedMessage(this.baseUrl, this.key, agentId, body);
    } catch (error) {
      throw new Unanswered(`streamed message: ${(error as Error).message}`);
    }
    if (message.status !== 200) return { status: message.status, headers: new Headers(), body: message.problem };
    try {
      for (let event = await message.events!.next(); event !== null; event = await message.events!.next()) {
        if (event.event === 'message.completed') return { status: 200, headers: new Headers(), body: event.data };
        if (event.event === 'message.failed') return { status: 599, headers: new Headers(), body: event.data };
      }
    } catch (error) {
      throw new Unanswered(`streamed message: ${(error as Error).message}`);
    }
    throw new Unanswered('streamed message: the stream ended before message.completed');
  }
}
