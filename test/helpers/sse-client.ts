/**
 * Reads a text/event-stream response the way a browser's EventSource would:
 * events as { event, data } (data parsed as JSON), comments kept apart so
 * tests can see keep-alives.
 */
export interface ReceivedEvent {
  event: string;
  data: any;
  /** The event's `id`, when it has one. */
  id?: string;
}

export interface EventReader {
  /** The next event, or null when the stream ended. Comments are collected in `comments`. */
  next(): Promise<ReceivedEvent | null>;
  /** Every remaining event until the stream ends. */
  rest(): Promise<ReceivedEvent[]>;
  comments: string[];
}

/** The text of a reply's `message.delta` events, joined: what a client shows. */
export function deltaText(events: readonly ReceivedEvent[]): string {
  return events
    .filter((event) => event.event === 'message.delta')
    .map((event) => event.data.text)
    .join('');
}

export function readEvents(body: ReadableStream<Uint8Array>): EventReader {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const comments: string[] = [];
  let buffer = '';
  let ended = false;

  async function nextBlock(): Promise<string | null> {
    for (;;) {
      const boundary = buffer.indexOf('\n\n');
      if (boundary >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        return block;
      }
      if (ended) return null;
      const { value, done } = await reader.read();
      if (done) ended = true;
      else buffer += decoder.decode(value, { stream: true });
    }
  }

  async function next(): Promise<ReceivedEvent | null> {
    for (;;) {
      const block = await nextBlock();
      if (block === null) return null;
      let event = 'message';
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) return { event, data: JSON.parse(data.join('\n')), ...(id !== undefined ? { id } : {}) };
    }
  }

  return {
    next,
    comments,
    async rest() {
      const events: ReceivedEvent[] = [];
      for (let event = await next(); event !== null; event = await next()) events.push(event);
      return events;
    },
  };
}
