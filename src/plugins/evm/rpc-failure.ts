import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  RpcRequestError,
  TimeoutError,
} from 'viem';
import { OutboundRefusedError } from '../../outbound/outbound-refused-error.js';
import { ToolError } from '../plugin.js';

/** Bounds the node's own words in a message to the model. */
const nodeMessageLimit = 300;

interface ChainLabel {
  name: string;
  host: string;
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 10;) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function clipped(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\.+$/, '');
  return line.length > nodeMessageLimit ? `${line.slice(0, nodeMessageLimit)}…` : line;
}

const connectionFailures: Record<string, string> = {
  ECONNREFUSED: 'refused the connection',
  ECONNRESET: 'closed the connection',
  ENOTFOUND: 'could not be found (DNS lookup failed)',
  EAI_AGAIN: 'could not be found (DNS lookup failed)',
  EHOSTUNREACH: 'could not be reached',
  ETIMEDOUT: 'did not answer in time',
};

/**
 * What went wrong with a call to a chain's RPC, as a ToolError the model can
 * act on. The RPC's host is named, never its URL (the path of a hosted RPC
 * often holds an API key), and viem's long messages (which quote the URL and
 * the request body) are left out.
 */
export function describeRpcFailure(error: unknown, chain: ChainLabel, timeoutMs: number): Error {
  if (error instanceof ToolError) return error;
  const all = causes(error);
  const at = `the RPC of ${chain.name} (${chain.host})`;
  const refused = all.find((cause) => cause instanceof OutboundRefusedError);
  if (refused instanceof OutboundRefusedError)
    return new ToolError(`The call to ${at} was refused: ${refused.reason}.`);
  if (all.some((cause) => cause instanceof TimeoutError)) {
    return new ToolError(`${capitalized(at)} did not answer within ${timeoutMs} ms.`);
  }
  const code = all.map((cause) => (cause as { code?: unknown }).code).find((value) => typeof value === 'string');
  if (typeof code === 'string' && connectionFailures[code] !== undefined) {
    return new ToolError(`${capitalized(at)} ${connectionFailures[code]}; the chain cannot be read right now.`);
  }
  const reverted = all.find((cause) => cause instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    return new ToolError(`The contract call reverted: ${clipped(reverted.reason ?? reverted.shortMessage)}.`);
  }
  if (all.some((cause) => (cause as Error).name === 'ContractFunctionZeroDataError')) {
    return new ToolError(
      `The call returned no data: there is no contract at that address on ${chain.name}, or it has no such function.`,
    );
  }
  if (all.some((cause) => cause instanceof InsufficientFundsError)) {
    return new ToolError('The sending account does not have enough funds for the amount and the gas.');
  }
  const http = all.find((cause) => cause instanceof HttpRequestError);
  if (http instanceof HttpRequestError && http.status !== undefined) {
    return new ToolError(`${capitalized(at)} answered HTTP ${http.status}.`);
  }
  if (all.some((cause) => cause instanceof RpcRequestError) || all.some(isRpcError)) {
    const nodeSays = all.find(isRpcError) as { details?: string; shortMessage?: string } | undefined;
    return new ToolError(
      `${capitalized(at)} returned an error: ${clipped(nodeSays?.details ?? nodeSays?.shortMessage ?? 'unknown')}.`,
    );
  }
  if (all.some((cause) => cause instanceof TypeError && cause.message === 'fetch failed')) {
    return new ToolError(`${capitalized(at)} could not be reached.`);
  }
  if (error instanceof BaseError) return new ToolError(clipped(error.shortMessage));
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Whether a failed call certainly never reached the node or was answered by
 * it with an error: the request was refused before it left, the connection
 * was refused or the host not found, or the node replied with a JSON-RPC
 * error. A time-out or a dropped connection leaves it unknown.
 */
export function nodeAnswered(error: unknown): boolean {
  const all = causes(error);
  if (all.some((cause) => cause instanceof OutboundRefusedError)) return true;
  if (all.some((cause) => cause instanceof TimeoutError)) return false;
  const code = all.map((cause) => (cause as { code?: unknown }).code).find((value) => typeof value === 'string');
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return true;
  return all.some((cause) => cause instanceof RpcRequestError) || all.some(isRpcError);
}

/** A JSON-RPC error object as viem keeps it: a numeric code and the node's message in `details`. */
function isRpcError(error: unknown): boolean {
  return error instanceof BaseError && typeof (error as { code?: unknown }).code === 'number';
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
