/**
 * The methods HTTP defines as safe (RFC 9110, 9.2.1): a request with one asks
 * only to read, so repeating it changes nothing at the server. TRACE is safe
 * too but no tool sends it. Any other method may change something.
 */
const safeMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSafeMethod(method: string): boolean {
  return safeMethods.has(method.toUpperCase());
}
