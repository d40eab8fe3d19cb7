import { Type, type Static } from '@sinclair/typebox';

const AddressString = Type.String({
  pattern: '^0x[0-9a-fA-F]{40}$',
  description: 'A 20-byte address in hex, 0x…',
});

/** How assets are named in limits: `native` for the chain's own currency, or a token symbol of `tokens`. */
const assetNamePattern = '^[A-Za-z0-9$._-]{1,20}$';

const DecimalAmount = Type.String({
  pattern: '^[0-9]{1,30}(\\.[0-9]{1,36})?$',
  description: 'An amount in whole units with decimals, e.g. "0.05" (ETH) or "100" (tokens).',
});

const AmountPerAsset = (description: string) =>
  Type.Record(Type.String({ pattern: assetNamePattern }), DecimalAmount, {
    maxProperties: 100,
    default: {},
    description,
  });

export const evmChainSchema = Type.Object(
  {
    chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The chain id (1: Ethereum).' }),
    rpcUrl: Type.String({
      pattern: '^https?://',
      maxLength: 2048,
      description:
        'The JSON-RPC endpoint (http or https). Called through the service’s outbound client: private and ' +
        'loopback addresses are refused unless the operator allows them (AGENTD_OUTBOUND_ALLOW_PRIVATE).',
    }),
    name: Type.Optional(
      Type.String({
        pattern: '^[a-z0-9][a-z0-9-]{0,31}$',
        description: 'What the model calls the chain, e.g. "mainnet" or "base"; default "chain-<chainId>".',
      }),
    ),
    nativeSymbol: Type.String({
      pattern: '^[A-Za-z0-9$._-]{1,12}$',
      default: 'ETH',
      description: 'The symbol of the chain’s own currency (18 decimals), e.g. "ETH" or "POL".',
    }),
    tokens: Type.Optional(
      Type.Record(Type.String({ pattern: assetNamePattern }), AddressString, {
        maxProperties: 100,
        description:
          'ERC-20 tokens the model may name by symbol, e.g. {"USDC": "0xA0b8…"}. Transfers of tokens are ' +
          'limited to these; reads accept any token address as well.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const evmPluginConfigSchema = Type.Object(
  {
    chains: Type.Array(evmChainSchema, {
      minItems: 1,
      maxItems: 20,
      description: 'The chains the agent may use; the first is the default when the model names none.',
    }),
    timeoutMs: Type.Integer({
      minimum: 500,
      maximum: 30_000,
      default: 10_000,
      description: 'How long one JSON-RPC call may take.',
    }),
    transfers: Type.Object(
      {
        enabled: Type.Boolean({
          default: false,
          description: 'Whether the model may send funds (the evm_transfer tool). Needs the privateKey secret.',
        }),
        requireApproval: Type.Boolean({
          default: true,
          description:
            'Whether each evm_transfer call waits for a person’s decision (POST /v1/agents/{id}/approvals/' +
            '{approvalId}) before anything is signed, whatever the entry’s `approval` names. Set it to false, ' +
            'explicitly, to let the model’s word alone send funds within the limits.',
        }),
        maxPerTransfer: AmountPerAsset(
          'The largest single transfer per asset, in whole units: "native" for each chain’s own currency, or a ' +
            'token symbol of `tokens`. An asset with no entry cannot be sent. The amount only: the fee is ' +
            'counted by maxPerDay.native.',
        ),
        maxPerDay: AmountPerAsset(
          'The most sent per asset, chain and UTC day (counted over every instance), same keys as maxPerTransfer. ' +
            'An asset with no entry cannot be sent. `native` also counts the fee of every transfer, tokens ' +
            'included, at its most (gas limit × max fee per gas, as signed): without a `native` entry nothing can ' +
            'be sent.',
        ),
        maxTransfersPerDay: Type.Integer({
          minimum: 1,
          maximum: 10_000,
          default: 20,
          description: 'The most transfers per chain and UTC day (counted over every instance), of any asset.',
        }),
        receiptTimeoutMs: Type.Integer({
          minimum: 1_000,
          maximum: 120_000,
          default: 10_000,
          description:
            'How long a transfer waits for its receipt before answering with the hash and `pending`. Keep it ' +
            'below the tool time-out (AGENTD_TOOL_TIMEOUT_MS, 15 s by default).',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false },
);
export type EvmPluginConfig = Static<typeof evmPluginConfigSchema>;
export type EvmChainConfig = EvmPluginConfig['chains'][number];

export const evmPluginSecretsSchema = Type.Object(
  {
    privateKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'The hex private key (0x + 64 hex digits) transfers are signed with. Write-only: read back masked, ' +
          'never given to the model, logged or recorded.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type EvmPluginSecrets = Static<typeof evmPluginSecretsSchema>;
