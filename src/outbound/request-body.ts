/**
 * A request body as bytes, with the content type the global fetch would give
 * it (text/plain for a string, form encoding for URLSearchParams, the boundary
 * for FormData). Bodies are read whole: they are small (tool arguments, JSON-RPC
 * messages) and a redirect with 307/308 has to send them again.
 */
export async function requestBody(
  body: RequestInit['body'],
): Promise<{ bytes: Uint8Array | null; contentType: string | null }> {
  if (body === undefined || body === null) return { bytes: null, contentType: null };
  if (typeof body === 'string') return { bytes: Buffer.from(body), contentType: 'text/plain;charset=UTF-8' };
  if (body instanceof Uint8Array) return { bytes: body, contentType: null };
  const wrapped = new Response(body);
  return { bytes: new Uint8Array(await wrapped.arrayBuffer()), contentType: wrapped.headers.get('content-type') };
}
