/**
 * A reader of text/event-stream (WHATWG HTML, "Server-sent events", the
 * parsing part): lines end in LF, CR or CRLF and may be cut anywhere between
 * network chunks; `:` lines are comments (the server's keep-alives) and are
 * skipped; several `data:` lines of one event are joined with LF; a blank line
 * ends the event. `id` is kept with its event (a run's streams resume after
 * it); `retry` is ignored.
 */
export interface RawServerSentEvent {
  event: string;
  data: string;
  id?: string;
}

export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<RawServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let eventName = '';
  let data: string[] = [];
  let id: string | undefined;
  let first = true;

  function* takeLines(final: boolean): Generator<string> {
    for (;;) {
      const end = buffer.search(/[\r\n]/);
      if (end < 0) break;
      // A CR at the very end of what arrived may be the first half of a CRLF: wait for the next chunk.
      if (buffer[end] === '\r' && end === buffer.length - 1 && !final) break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(buffer[end] === '\r' && buffer[end + 1] === '\n' ? end + 2 : end + 1);
      yield line;
    }
  }

  function lineToEvent(line: string): RawServerSentEvent | null {
    if (line === '') {
      const event =
        data.length > 0
          ? { event: eventName || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) }
          : null;
      eventName = '';
      data = [];
      id = undefined;
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventName = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    return null;
  }

  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (first && buffer.length > 0) {
        if (buffer.startsWith('\uFEFF')) buffer = buffer.slice(1);
        first = false;
      }
      for (const line of takeLines(done)) {
        const event = lineToEvent(line);
        if (event) yield event;
      }
      // An event not closed by a blank line when the stream ends is dropped, as the standard says.
      if (done) return;
    }
  } finally {
    // A consumer that stops early closes the connection, which tells the server to stop the reply.
    await reader.cancel().catch(() => undefined);
  }
}
