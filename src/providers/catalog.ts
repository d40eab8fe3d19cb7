import { ConfigError, type Config } from '../config.js';

/**
 * Which model providers this deployment has enabled, decided once from the
 * environment, and the default model for new agents (contract §6).
 */
export const providerNames = ['openai', 'anthropic', 'openai-compatible', 'ollama', 'builtin'] as const;
export type ProviderName = (typeof providerNames)[number];

/** The usual small model of each provider, used for the default when none is configured. */
const usualSmallModel: Partial<Record<ProviderName, string>> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5',
  ollama: 'llama3.2',
};

export const builtinModelNames = ['echo'] as const;

export interface ModelReference {
  provider: string;
  name: string;
}

export class ProviderCatalog {
  readonly enabled: readonly ProviderName[];
  readonly defaultModel: ModelReference;

  constructor(config: Pick<Config, 'providers' | 'defaultModel'>) {
    const enabled: ProviderName[] = [];
    if (config.providers.openai) enabled.push('openai');
    if (config.providers.anthropic) enabled.push('anthropic');
    if (config.providers.openaiCompatible) enabled.push('openai-compatible');
    if (config.providers.ollama) enabled.push('ollama');
    enabled.push('builtin');
    this.enabled = enabled;

    if (config.defaultModel) {
      const problem = this.problemWith(config.defaultModel);
      if (problem) throw new ConfigError('AGENTD_DEFAULT_MODEL', problem.message);
      this.defaultModel = config.defaultModel;
    } else {
      const provider = enabled.find((name) => usualSmallModel[name] !== undefined);
      this.defaultModel = provider
        ? { provider, name: usualSmallModel[provider] as string }
        : { provider: 'builtin', name: 'echo' };
    }
  }

  isEnabled(provider: string): provider is ProviderName {
    return (this.enabled as readonly string[]).includes(provider);
  }

  /** Why this model cannot be used here, and which of its fields is at fault; null when it can. */
  problemWith(model: ModelReference): { field: 'provider' | 'name'; message: string } | null {
    if (!this.isEnabled(model.provider)) {
      return {
        field: 'provider',
        message: `names provider "${model.provider}", which is not enabled on this server (enabled: ${this.enabled.join(', ')})`,
      };
    }
    if (model.provider === 'builtin' && !(builtinModelNames as readonly string[]).includes(model.name)) {
      return {
        field: 'name',
        message: `names builtin model "${model.name}" (builtin models: ${builtinModelNames.join(', ')})`,
      };
    }
    return null;
  }
}
