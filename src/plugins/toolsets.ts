import type { Logger } from 'pino';
import type { SecretBox } from '../security/secret-box.js';
import type { AgentRecord } from '../storage/repositories/agents.js';
import type { PluginCatalog } from './catalog.js';
import type { PluginContext, PluginInstance, Tool } from './plugin.js';
import { SecretMask, withSecretsRedacted } from './redact-secrets.js';

/** The tools one agent offers its model for one reply. */
export interface Toolbox {
  tools: ReadonlyMap<string, Tool>;
  /** Plugins that could not be opened for this reply, each with why, as the model is told. */
  unavailable: string[];
  /** The tools whose calls wait for a person's decision, with how long a request waits (docs/approvals.md). */
  approvals: ReadonlyMap<string, { expiresAfterSeconds: number }>;
}

/** How long an approval request waits for a decision when its plugin entry names no time: 24 h. */
export const defaultApprovalSeconds = 86_400;

type OpenEntry = { instance: PluginInstance } | { failure: string };

/** One enabled plugin entry; one that could not be opened is retried on the next use. */
interface PluginSlot {
  opened: Promise<OpenEntry | null>;
  reopen: (() => Promise<OpenEntry | null>) | null;
  failed: boolean;
}

interface AgentTools {
  version: number;
  /** In the agent's order. */
  slots: PluginSlot[];
  lastUsed: number;
}

export interface ToolsetOptions {
  catalog: PluginCatalog;
  secretBox: SecretBox;
  logger: Logger;
  /** What plugins of this agent may use of the service (outbound fetch, knowledge search, clock). */
  contextFor(agent: AgentRecord): PluginContext;
  /** Agents whose tools went unused this long have their connections closed. */
  idleMs?: number;
}

const toolName = /^[A-Za-z0-9_-]{1,64}$/;
const defaultIdleMs = 10 * 60_000;

/**
 * The open plugin instances of each agent, kept while the agent is unchanged
 * so that connections (MCP sessions) are pooled per agent: a new version of
 * the agent (any PATCH) or its deletion closes them, and so does a long idle
 * spell. Entries of other instances' agents are noticed by their version on
 * the next message.
 */
export class AgentToolsets {
  readonly #agents = new Map<string, AgentTools>();
  readonly #idleMs: number;
  readonly #sweeper: NodeJS.Timeout;

  constructor(private readonly options: ToolsetOptions) {
    this.#idleMs = options.idleMs ?? defaultIdleMs;
    this.#sweeper = setInterval(() => void this.#sweep(), Math.min(this.#idleMs, 60_000));
    this.#sweeper.unref();
  }

  /**
   * A set of its own with the same options, for tools opened apart from the agents' own: an eval's version of an
   * agent (src/services/evals/) opens that version's plugins there, so the agent's pooled connections stay as they are.
   */
  detached(): AgentToolsets {
    return new AgentToolsets(this.options);
  }

  /** Whether the agent has any enabled plugin (no tools to open otherwise). */
  static hasPlugins(agent: AgentRecord): boolean {
    return agent.profile.plugins.some((plugin) => plugin.enabled);
  }

  /** The agent's tools, opening its plugins when this version of the agent has none open yet. */
  async toolboxFor(agent: AgentRecord): Promise<Toolbox | null> {
    if (!AgentToolsets.hasPlugins(agent)) return null;
    let current = this.#agents.get(agent.id);
    if (current !== undefined && current.version !== agent.version) {
      this.#agents.delete(agent.id);
      void this.#close(current);
      current = undefined;
    }
    if (current === undefined) {
      current = { version: agent.version, slots: this.#open(agent), lastUsed: 0 };
      this.#agents.set(agent.id, current);
    }
    current.lastUsed = Date.now();
    for (const slot of current.slots) {
      // A plugin that could not be opened (an unreachable server) is tried again on the next message.
      if (slot.failed && slot.reopen !== null) {
        slot.failed = false;
        slot.opened = slot.reopen();
      }
    }
    const opened = await Promise.all(current.slots.map((slot) => slot.opened));
    const unavailable: string[] = [];
    for (const [index, slot] of current.slots.entries()) {
      const entry = opened[index];
      if (entry !== undefined && entry !== null && 'failure' in entry) {
        slot.failed = true;
        unavailable.push(entry.failure);
      }
    }

    const tools = new Map<string, Tool>();
    const approvals = new Map<string, { expiresAfterSeconds: number }>();
    const entries = agent.profile.plugins.filter((plugin) => plugin.enabled);
    for (const [index, entry] of opened.entries()) {
      if (entry === null || entry === undefined || 'failure' in entry) continue;
      const approval = entries[index]?.approval;
      const approvedByDefault = new Set(entry.instance.requiresApproval ?? []);
      for (const tool of entry.instance.tools) {
        if (!toolName.test(tool.name) || tools.has(tool.name)) {
          this.options.logger.warn({ agentId: agent.id, tool: tool.name }, 'tool skipped: invalid or duplicate name');
          continue;
        }
        tools.set(tool.name, tool);
        // The plugin's own default adds to what the entry names; an entry cannot take it away (the plugin's
        // config says how, e.g. the evm plugin's `transfers.requireApproval`).
        if (
          approvedByDefault.has(tool.name) ||
          (approval !== undefined && (approval.tools === '*' || approval.tools.includes(tool.name)))
        ) {
          approvals.set(tool.name, { expiresAfterSeconds: approval?.expiresAfterSeconds ?? defaultApprovalSeconds });
        }
      }
    }
    return tools.size > 0 || unavailable.length > 0 ? { tools, unavailable, approvals } : null;
  }

  /** Closes the agent's connections (it was changed or deleted). */
  async forget(agentId: string): Promise<void> {
    const current = this.#agents.get(agentId);
    if (current === undefined) return;
    this.#agents.delete(agentId);
    await this.#close(current);
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const all = [...this.#agents.values()];
    this.#agents.clear();
    await Promise.all(all.map((agent) => this.#close(agent)));
  }

  #open(agent: AgentRecord): PluginSlot[] {
    const { catalog, secretBox, logger } = this.options;
    const context = this.options.contextFor(agent);
    return agent.profile.plugins
      .filter((plugin) => plugin.enabled)
      .map((plugin): PluginSlot => {
        const definition = catalog.definitionOf(plugin.name);
        if (definition === undefined) {
          logger.warn({ agentId: agent.id, plugin: plugin.name }, 'plugin not offered by this server; skipped');
          return { opened: Promise.resolve(null), reopen: null, failed: false };
        }
        const open = async (): Promise<OpenEntry | null> => {
          const secrets: Record<string, string> = {};
          try {
            for (const [name, secret] of Object.entries(plugin.secrets)) {
              secrets[name] = secretBox.open(secret.sealed, agent.id);
            }
            const instance = await definition.open(
              catalog.configWithDefaults(plugin.name, plugin.config),
              secrets,
              context,
            );
            const tools = withSecretsRedacted(instance.tools, Object.values(secrets));
            return {
              instance: {
                tools,
                ...(instance.requiresApproval ? { requiresApproval: instance.requiresApproval } : {}),
                ...(instance.close ? { close: () => instance.close!() } : {}),
              },
            };
          } catch (error) {
            // Never the error object itself, and the message with the plugin's secrets masked: a plugin's error
            // may quote what it was given.
            const reason = SecretMask.of(Object.values(secrets)).text((error as Error).message);
            logger.warn(
              { agentId: agent.id, plugin: plugin.name, reason },
              'plugin could not be opened; its tools are left out of this reply',
            );
            return { failure: `the ${plugin.name} plugin's tools are unavailable: ${reason}` };
          }
        };
        return { opened: open(), reopen: open, failed: false };
      });
  }

  async #close(agent: AgentTools): Promise<void> {
    const opened = await Promise.all(agent.slots.map((slot) => slot.opened));
    await Promise.all(
      opened.map((entry) =>
        (entry && 'instance' in entry ? entry : undefined)?.instance
          .close?.()
          .catch((error: unknown) =>
            this.options.logger.warn({ reason: (error as Error).message }, 'plugin did not close cleanly'),
          ),
      ),
    );
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    for (const [agentId, agent] of this.#agents) {
      if (now - agent.lastUsed < this.#idleMs) continue;
      this.#agents.delete(agentId);
      await this.#close(agent);
    }
  }
}
