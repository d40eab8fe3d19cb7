import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { AnyPluginDefinition, PluginCheckContext, PluginEntryProblem } from './plugin.js';
import { valueProblems } from '../validation-wording.js';

export type { PluginEntryProblem } from './plugin.js';

/** What GET /v1/plugins tells about a plugin. */
export interface PluginDescription {
  name: string;
  description: string;
  configSchema: TSchema;
  secretsSchema: TSchema;
}

interface CompiledPlugin {
  definition: AnyPluginDefinition;
  config: TypeCheck<TSchema>;
  secrets: TypeCheck<TSchema>;
}

const maxProblemsPerEntry = 20;

/**
 * A config schema as users read it: a property with a default may be left
 * out (the default is filled in before checking), so it is not listed as
 * required, though the TypeBox type the plugin reads has it.
 */
function asWritten(schema: TSchema): TSchema {
  const copy = Value.Clone(schema) as Record<string, unknown>;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const object = node as { properties?: Record<string, { default?: unknown }>; required?: string[] };
    if (object.properties && Array.isArray(object.required)) {
      const required = object.required.filter((name) => object.properties?.[name]?.default === undefined);
      if (required.length > 0) object.required = required;
      else delete object.required;
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(copy);
  return copy as TSchema;
}

/**
 * The plugins this server offers, by name, with their config and secrets
 * schemas compiled once. Entries of an agent are checked against them on
 * create and PATCH; a stored entry is opened with its defaults applied.
 */
export class PluginCatalog {
  readonly #plugins = new Map<string, CompiledPlugin>();

  constructor(definitions: readonly AnyPluginDefinition[]) {
    for (const definition of definitions) {
      if (this.#plugins.has(definition.name)) throw new Error(`Plugin ${definition.name} is listed twice`);
      this.#plugins.set(definition.name, {
        definition,
        config: TypeCompiler.Compile(definition.configSchema),
        secrets: TypeCompiler.Compile(definition.secretsSchema),
      });
    }
  }

  get names(): string[] {
    return [...this.#plugins.keys()];
  }

  definitionOf(name: string): AnyPluginDefinition | undefined {
    return this.#plugins.get(name)?.definition;
  }

  #descriptions: PluginDescription[] | null = null;

  /** What GET /v1/plugins shows, built once. */
  describe(): PluginDescription[] {
    return (this.#descriptions ??= [...this.#plugins.values()].map(({ definition }) => ({
      name: definition.name,
      description: definition.description,
      configSchema: asWritten(definition.configSchema),
      secretsSchema: definition.secretsSchema,
    })));
  }

  /** The entry's config with the schema's defaults filled in (for a config that passed `check`). */
  configWithDefaults(name: string, config: Record<string, unknown>): unknown {
    const plugin = this.#plugins.get(name);
    if (plugin === undefined) return config;
    return Value.Default(plugin.definition.configSchema, Value.Clone(config));
  }

  /**
   * What decides where an entry's secrets go (see PluginDefinition.secretDestination).
   * A plugin that does not say, one this server lacks, or a config the plugin
   * cannot read (it fails the schema, and is refused for that) gives the
   * whole config: then any change counts as a new destination, the safe side
   * for a plugin nobody has said where its secrets go.
   */
  secretDestination(name: string, config: Record<string, unknown>): unknown {
    const definition = this.#plugins.get(name)?.definition;
    // Defaults filled in, so that a client writing them out (the dashboard does) changes nothing.
    const withDefaults = this.configWithDefaults(name, config);
    if (definition?.secretDestination === undefined) return withDefaults;
    try {
      return definition.secretDestination(withDefaults);
    } catch {
      return withDefaults;
    }
  }

  /**
   * Problems of one entry: an unknown name, a config or secrets that do not
   * match the plugin's schemas. Defaults are applied before checking, so a
   * config may leave out what has a default. `secrets` holds the secret
   * values as sent (or their masks, for kept secrets).
   */
  check(name: string, config: Record<string, unknown>, secrets: Record<string, string>): PluginEntryProblem[] {
    const plugin = this.#plugins.get(name);
    if (plugin === undefined) {
      return [{ path: '/name', message: `is not a plugin of this server (available: ${this.names.join(', ')})` }];
    }
    const problems: PluginEntryProblem[] = [];
    const collect = (check: TypeCheck<TSchema>, value: unknown, base: string) => {
      for (const problem of valueProblems(check.Errors(value), maxProblemsPerEntry - problems.length)) {
        problems.push({ ...problem, path: `${base}${problem.path}` });
      }
    };
    if (plugin.definition.configRequired === true && Object.keys(config).length === 0) {
      problems.push({ path: '/config', message: `must be given: the ${name} plugin needs a config` });
    }
    collect(plugin.config, this.configWithDefaults(name, config), '/config');
    collect(plugin.secrets, secrets, '/secrets');
    return problems;
  }

  /**
   * The plugin's own further checks of an entry (see PluginDefinition.check),
   * for an entry whose config and secrets match the schemas; entries that do
   * not are left to `check`, which reports why.
   */
  async checkFurther(
    name: string,
    config: Record<string, unknown>,
    secrets: Record<string, string>,
    context: PluginCheckContext,
  ): Promise<PluginEntryProblem[]> {
    const plugin = this.#plugins.get(name);
    if (plugin?.definition.check === undefined) return [];
    if (this.check(name, config, secrets).length > 0) return [];
    const problems = await plugin.definition.check(
      this.configWithDefaults(name, config),
      Object.keys(secrets),
      context,
    );
    return problems.slice(0, maxProblemsPerEntry);
  }
}
