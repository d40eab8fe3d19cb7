import { Type } from '@sinclair/typebox';
import { parseAbiItem, type AbiFunction, type AbiParameter } from 'viem';
import { ToolError, type Tool } from '../plugin.js';
import { ChainInput, checkedInput } from './inputs.js';
import { onChain, type EvmToolContext } from './read-tools.js';
import { jsonValue, parseAddress } from './values.js';

const ReadContractInput = Type.Object(
  {
    chain: ChainInput,
    address: Type.String({ maxLength: 64, description: 'The contract address, 0x…' }),
    function: Type.Union(
      [
        Type.String({ maxLength: 2000 }),
        Type.Object({}, { additionalProperties: true, description: 'A JSON ABI entry of type "function".' }),
      ],
      {
        description:
          'The function to call, as a Solidity signature ("function balanceOf(address owner) view returns ' +
          '(uint256)") or its JSON ABI entry. Only view and pure functions can be called.',
      },
    ),
    args: Type.Optional(
      Type.Array(Type.Unknown(), {
        maxItems: 32,
        description:
          'The arguments in order; integers as decimal strings (or numbers), addresses and bytes as 0x… hex.',
      }),
    ),
  },
  { additionalProperties: false },
);

function functionOf(given: string | Record<string, unknown>): AbiFunction {
  let item: unknown;
  try {
    item =
      typeof given === 'string'
        ? parseAbiItem(given.trim().startsWith('function') ? given : `function ${given}`)
        : given;
  } catch (error) {
    throw new ToolError(
      `The function signature could not be read: ${(error as { shortMessage?: string }).shortMessage ?? 'invalid'}.`,
    );
  }
  const entry = item as Partial<AbiFunction>;
  if (entry.type !== 'function' || typeof entry.name !== 'string' || !Array.isArray(entry.inputs)) {
    throw new ToolError('The function must be a function ABI entry with a name, inputs and outputs.');
  }
  const mutability = entry.stateMutability ?? ((entry as { constant?: boolean }).constant ? 'view' : undefined);
  if (mutability !== 'view' && mutability !== 'pure') {
    throw new ToolError(
      `${entry.name} is ${mutability ?? 'not marked view or pure'}; only view and pure functions can be read (declare it "view" if it is one).`,
    );
  }
  return { ...entry, stateMutability: mutability, outputs: entry.outputs ?? [] } as AbiFunction;
}

/** An argument as the ABI wants it: integers as bigint (the model writes them as strings), arrays and tuples within. */
function argumentFor(parameter: AbiParameter, value: unknown, path: string): unknown {
  const arrayMatch = /^(.*)\[(\d*)\]$/.exec(parameter.type);
  if (arrayMatch) {
    if (!Array.isArray(value)) throw new ToolError(`Argument ${path} must be an array (${parameter.type}).`);
    const inner = { ...parameter, type: arrayMatch[1]! } as AbiParameter;
    return value.map((item, index) => argumentFor(inner, item, `${path}[${index}]`));
  }
  if (parameter.type === 'tuple') {
    const components = (parameter as { components?: readonly AbiParameter[] }).components ?? [];
    if (Array.isArray(value))
      return components.map((component, index) => argumentFor(component, value[index], `${path}.${index}`));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        components.map((component) => [
          component.name,
          argumentFor(component, (value as Record<string, unknown>)[component.name ?? ''], `${path}.${component.name}`),
        ]),
      );
    }
    throw new ToolError(`Argument ${path} must be an array or object (tuple).`);
  }
  if (/^u?int\d*$/.test(parameter.type)) {
    if (
      (typeof value === 'string' && /^-?[0-9]{1,78}$/.test(value.trim())) ||
      (typeof value === 'number' && Number.isSafeInteger(value))
    ) {
      return BigInt(typeof value === 'string' ? value.trim() : value);
    }
    throw new ToolError(`Argument ${path} must be an integer (${parameter.type}), e.g. "1000".`);
  }
  if (parameter.type === 'address') return parseAddress(value, `argument ${path}`);
  if (parameter.type === 'bool') {
    if (typeof value === 'boolean') return value;
    throw new ToolError(`Argument ${path} must be true or false.`);
  }
  return value;
}

export function readContractTool(context: EvmToolContext): Tool {
  return {
    name: 'evm_read_contract',
    description:
      'Calls a view or pure function of a contract (no transaction, no gas) and returns what it returns. Give the ' +
      'function as a Solidity signature or JSON ABI entry, and its arguments.',
    inputSchema: ReadContractInput,
    // An eth_call: no transaction, nothing changes on the chain.
    sideEffects: false,
    async execute(input) {
      const { chain: named, address: given, function: fragment, args = [] } = checkedInput(ReadContractInput, input);
      const address = parseAddress(given, 'contract address');
      const abiFunction = functionOf(fragment);
      if (args.length !== abiFunction.inputs.length) {
        throw new ToolError(
          `${abiFunction.name} takes ${abiFunction.inputs.length} arguments; ${args.length} were given.`,
        );
      }
      const encoded = abiFunction.inputs.map((parameter, index) =>
        argumentFor(parameter, args[index], parameter.name || String(index)),
      );
      return onChain(context, named, async (chain) => {
        const result = await chain.client.readContract({
          address,
          abi: [abiFunction],
          functionName: abiFunction.name,
          args: encoded,
        });
        return {
          chain: chain.name,
          chainId: chain.chainId,
          address,
          function: abiFunction.name,
          result: jsonValue(result),
        };
      });
    },
  };
}
