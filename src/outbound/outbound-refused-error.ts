/**
 * An outgoing call to a user-given URL that agentd would not make. The message
 * names the host and the reason only: the path, query, headers and body may
 * hold credentials and are never repeated.
 */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';

  /** `target` is the host, or a short description (e.g. "a file: URL") when there is none. */
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`Refused a call to ${target}: ${reason}`);
  }
}
