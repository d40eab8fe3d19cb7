import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { AnyPlatformDefinition } from './platform.js';
import { valueProblems, type FieldErrorCode } from '../validation-wording.js';

/** A problem with one platform entry, at a JSON pointer relative to the entry. */
export interface PlatformEntryProblem {
  path: string;
  /** Set where a schema check found the problem (src/validation-wording.ts). */
  code?: FieldErrorCode;
  message: string;
}

/** What GET /v1/platforms tells about a platform type. */
export interface PlatformDescription {
  type: string;
  description: string;
  settingsSchema: TSchema;
  secretsSchema: TSchema;
}

interface CompiledPlatform {
  definition: AnyPlatformDefinition;
  settings: TypeCheck<TSchema>;
  secrets: TypeCheck<TSchema>;
}

const maxProblemsPerEntry = 20;

/**
 * The platform connectors this server runs, by type, with their settings and
 * secrets schemas compiled once. An agent's `platforms[]` entries of these
 * types are checked on create and PATCH. Entries of other types are accepted
 * and stored (agents written before a connector existed, or for one this
 * server lacks, keep working) and reported as `unsupported`: never run.
 */
export class PlatformCatalog {
  readonly #platforms = new Map<string, CompiledPlatform>();
  #descriptions: PlatformDescription[] | null = null;

  constructor(definitions: readonly AnyPlatformDefinition[]) {
    for (const definition of definitions) {
      if (this.#platforms.has(definition.type)) throw new Error(`Platform ${definition.type} is listed twice`);
      this.#platforms.set(definition.type, {
        definition,
        settings: TypeCompiler.Compile(definition.settingsSchema),
        secrets: TypeCompiler.Compile(definition.secretsSchema),
      });
    }
  }

  get types(): string[] {
    return [...this.#platforms.keys()];
  }

  definitionOf(type: string): AnyPlatformDefinition | undefined {
    return this.#platforms.get(type)?.definition;
  }

  /** What GET /v1/platforms shows, built once. */
  describe(): PlatformDescription[] {
    return (this.#descriptions ??= [...this.#platforms.values()].map(({ definition }) => ({
      type: definition.type,
      description: definition.description,
      settingsSchema: definition.settingsSchema,
      secretsSchema: definition.secretsSchema,
    })));
  }

  /** The entry's settings with the schema's defaults filled in. */
  settingsWithDefaults(type: string, settings: Record<string, unknown>): Record<string, unknown> {
    const platform = this.#platforms.get(type);
    if (platform === undefined) return settings;
    return Value.Default(platform.definition.settingsSchema, Value.Clone(settings)) as Record<string, unknown>;
  }

  /**
   * What decides where an entry's secrets go (see PlatformDefinition.secretDestination).
   * A connector that does not say, a type this server lacks, or settings the
   * connector cannot read give the whole settings: any change then counts as
   * a new destination, the safe side.
   */
  secretDestination(type: string, settings: Record<string, unknown>): unknown {
    const definition = this.#platforms.get(type)?.definition;
    // Defaults filled in, so that a client writing them out (the dashboard does) changes nothing.
    const withDefaults = this.settingsWithDefaults(type, settings);
    if (definition?.secretDestination === undefined) return withDefaults;
    try {
      return definition.secretDestination(withDefaults);
    } catch {
      return withDefaults;
    }
  }

  /**
   * Problems of one entry of a known type: settings or secrets its schemas
   * refuse (defaults applied first). `secrets` holds the values as sent, or
   * their masks for kept secrets, so secrets schemas check names and presence,
   * not formats. Unknown types have no problems: they are stored, not run.
   */
  check(type: string, settings: Record<string, unknown>, secrets: Record<string, string>): PlatformEntryProblem[] {
    const platform = this.#platforms.get(type);
    if (platform === undefined) return [];
    const problems: PlatformEntryProblem[] = [];
    const collect = (check: TypeCheck<TSchema>, value: unknown, base: string) => {
      for (const problem of valueProblems(check.Errors(value), maxProblemsPerEntry - problems.length)) {
        problems.push({ ...problem, path: `${base}${problem.path}` });
      }
    };
    collect(platform.settings, this.settingsWithDefaults(type, settings), '/settings');
    collect(platform.secrets, secrets, '/secrets');
    return problems;
  }
}
