import { formatUnits, getAddress, isAddress, isHash, parseUnits } from 'viem';
import { ToolError } from '../plugin.js';

export type Address = `0x${string}`;
export type Hash = `0x${string}`;

/** An amount as the tools give it: exact base units (a string, as they pass 2^53) and formatted with its decimals. */
export interface Amount {
  baseUnits: string;
  formatted: string;
  decimals: number;
  symbol: string | null;
}

export function amountOf(value: bigint, decimals: number, symbol: string | null): Amount {
  return { baseUnits: value.toString(), formatted: formatUnits(value, decimals), decimals, symbol };
}

/** A checksummed address from what the model wrote; a readable ToolError for anything else. */
export function parseAddress(text: unknown, what = 'address'): Address {
  if (typeof text !== 'string' || !isAddress(text, { strict: false })) {
    throw new ToolError(
      `The ${what} ${JSON.stringify(text)} is not a valid address: expected 0x followed by 40 hex digits.`,
    );
  }
  // A mixed-case address whose checksum is wrong was probably mistyped: refused rather than guessed at.
  if (text !== text.toLowerCase() && text.slice(2) !== text.slice(2).toUpperCase() && !isAddress(text)) {
    throw new ToolError(`The ${what} ${text} has a wrong checksum (mixed case that does not match); check it.`);
  }
  return getAddress(text);
}

export function parseHash(text: unknown, what = 'transaction hash'): Hash {
  if (typeof text !== 'string' || !isHash(text)) {
    throw new ToolError(`The ${what} ${JSON.stringify(text)} is not valid: expected 0x followed by 64 hex digits.`);
  }
  return text.toLowerCase() as Hash;
}

const decimalAmount = /^[0-9]{1,30}(\.[0-9]{1,36})?$/;

/** Base units of an amount written in whole units ("1.5"); more decimals than the asset has is an error. */
export function parseAmount(text: unknown, decimals: number, symbol: string): bigint {
  if (typeof text !== 'string' || !decimalAmount.test(text.trim())) {
    throw new ToolError(`The amount ${JSON.stringify(text)} is not a decimal number like "0.5".`);
  }
  const trimmed = text.trim();
  const fraction = trimmed.split('.')[1] ?? '';
  if (fraction.replace(/0+$/, '').length > decimals) {
    throw new ToolError(`${symbol} has ${decimals} decimals; the amount ${trimmed} has more.`);
  }
  return parseUnits(trimmed, decimals);
}

/** A value from the chain as JSON: big integers as decimal strings, byte arrays as hex. */
export function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value instanceof Uint8Array) return `0x${Buffer.from(value).toString('hex')}`;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, jsonValue(entry)]));
  }
  return value;
}
