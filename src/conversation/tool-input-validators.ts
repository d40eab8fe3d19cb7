import type { Ajv, ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import type { Tool } from '../plugins/plugin.js';
import { newAjv } from '../schemas/json-schema-validator.js';

/**
 * Distinct input schemas one Ajv instance compiles before it is replaced.
 * Ajv keeps every schema it compiled (its schema cache and the code scope of
 * each compiled function) for as long as the instance lives, and a plugin
 * opened for each agent hands out a new schema object every time; so
 * validators are shared by the schema's text, and the instance, with all it
 * holds, is dropped once this many texts have been seen.
 */
export const maxCompiledSchemas = 256;

export class ToolInputValidators {
  #ajv = ToolInputValidators.#newAjv();
  /** By the schema's JSON text: equal schemas of different tool objects compile once. */
  readonly #byText = new Map<string, ValidateFunction | null>();
  /** The fast path: a tool asks again for every call it gets. */
  readonly #byTool = new WeakMap<Tool, ValidateFunction | null>();

  static #newAjv(): Ajv {
    return newAjv({ allErrors: false, strict: false, validateSchema: false });
  }

  /** Schemas compiled by the current instance (what it holds on to). */
  get compiledCount(): number {
    return this.#byText.size;
  }

  /** The tool's input check, or null when its schema cannot be compiled (the tool checks its own input then). */
  validatorOf(tool: Tool, logger: Logger): ValidateFunction | null {
    let validator = this.#byTool.get(tool);
    if (validator !== undefined) return validator;
    const text = JSON.stringify(tool.inputSchema) ?? 'null';
    validator = this.#byText.get(text);
    if (validator === undefined) {
      if (this.#byText.size >= maxCompiledSchemas) {
        this.#byText.clear();
        this.#ajv = ToolInputValidators.#newAjv();
      }
      try {
        validator = this.#ajv.compile(tool.inputSchema);
      } catch (error) {
        // A schema from elsewhere (an MCP server) that Ajv cannot compile.
        logger.debug({ tool: tool.name, reason: (error as Error).message }, 'tool input schema not compiled');
        validator = null;
      }
      this.#byText.set(text, validator);
    }
    this.#byTool.set(tool, validator);
    return validator;
  }
}
