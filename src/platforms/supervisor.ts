import { encodeTime } from 'ulid';
import type { Logger } from 'pino';
import { isoTime, type Clock } from '../clock.js';
import type { PlatformLeases } from '../limits/platform-lease.js';
import type { SecretBox } from '../security/secret-box.js';
import type { AgentRecord } from '../storage/repositories/agents.js';
import type { PlatformState } from '../storage/repositories/platform-states.js';
import type { Repositories } from '../storage/repositories/index.js';
import type { PlatformCatalog } from './catalog.js';
import { ConnectorRunner, type RunnerTimings } from './connector-runner.js';
import type { PlatformContext } from './platform.js';

export interface SupervisorTimings extends RunnerTimings {
  /** How often the trail is read for agents changed on any instance (what makes a stop take under a second). */
  changePollMs: number;
  /** How often every agent with platforms is compared with what runs: the safety net. */
  reconcileMs: number;
}

export interface SupervisorOptions {
  catalog: PlatformCatalog;
  repositories: Repositories;
  secretBox: SecretBox;
  leases: PlatformLeases;
  instanceId: string;
  clock: Clock;
  logger: Logger;
  timings: SupervisorTimings;
  /** The connector's context for this agent (message path, fetch, base URLs); built by the composition root. */
  contextFor(
    agent: AgentRecord,
    type: string,
    signal: AbortSignal,
    reportFailure: (error: unknown) => void,
  ): PlatformContext;
  /** Records a connector event in the agent's trail (written by the service, as actor `service`). */
  recordEvent(
    agent: AgentRecord,
    type: 'connector.started' | 'connector.stopped' | 'connector.failed',
    data: Record<string, unknown>,
  ): Promise<void>;
  /** Puts the agent in `error` through the status-change path (trail and log), unless its owner changed it meanwhile. */
  markFaulted(agent: AgentRecord, reason: string): Promise<void>;
}

interface Running {
  runner: ConnectorRunner;
  fingerprint: string;
}

/** How far back the trail is read each time: changes that commit late (a slow transaction) are still seen. */
const changeWindowMs = 5_000;

/**
 * Runs, on this instance, each agent's connectors exactly while the agent is
 * `active` and the platform `enabled`. Every change to an agent (create,
 * update, status change, delete, on whichever instance) writes its trail in
 * the same transaction; reading the trail's recent ids a few times a second
 * makes every instance see it within a second, on SQLite and PostgreSQL
 * alike, with or without Redis. A full reconcile now and then catches
 * anything missed.
 */
export class PlatformSupervisor {
  readonly #running = new Map<string, Map<string, Running>>();
  /** Work per agent runs one at a time, in order. */
  readonly #queues = new Map<string, Promise<void>>();
  #seenChanges = new Set<string>();
  #changeTimer: NodeJS.Timeout | null = null;
  #reconcileTimer: NodeJS.Timeout | null = null;
  #polling = false;
  #stopped = false;

  constructor(private readonly options: SupervisorOptions) {}

  async start(): Promise<void> {
    this.#stopped = false;
    // Changes before now are covered by the first full reconcile.
    this.#seenChanges = new Set((await this.#recentChanges()).map((change) => change.id));
    await this.reconcileAll();
    this.#changeTimer = setInterval(() => void this.#pollChanges(), this.options.timings.changePollMs);
    this.#reconcileTimer = setInterval(() => void this.reconcileAll(), this.options.timings.reconcileMs);
    this.#changeTimer.unref();
    this.#reconcileTimer.unref();
  }

  /** Stops every connector of this instance (shutdown); their states are left for the next holder to write. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#changeTimer) clearInterval(this.#changeTimer);
    if (this.#reconcileTimer) clearInterval(this.#reconcileTimer);
    await Promise.all([...this.#queues.values()]);
    const runners = [...this.#running.values()].flatMap((entries) => [...entries.values()]);
    this.#running.clear();
    await Promise.all(runners.map(({ runner }) => runner.stop()));
  }

  async #recentChanges() {
    const since = `evt_${encodeTime(Math.max(0, this.options.clock.now() - changeWindowMs), 10)}`;
    return this.options.repositories.platformStates.changesAfter(since);
  }

  async #pollChanges(): Promise<void> {
    if (this.#polling || this.#stopped) return;
    this.#polling = true;
    try {
      const changes = await this.#recentChanges();
      const changed = new Map<string, string>();
      for (const change of changes) {
        if (!this.#seenChanges.has(change.id)) changed.set(change.agentId, change.accountId);
      }
      this.#seenChanges = new Set(changes.map((change) => change.id));
      await Promise.all([...changed].map(([agentId, accountId]) => this.reconcileAgent(agentId, accountId)));
    } catch (error) {
      this.options.logger.warn({ error: (error as Error).message }, 'platform change poll failed');
    } finally {
      this.#polling = false;
    }
  }

  /** Compares every agent with platforms (and every agent running here) with what should run. */
  async reconcileAll(): Promise<void> {
    if (this.#stopped) return;
    try {
      const agents = await this.options.repositories.platformStates.agentsWithPlatforms();
      const accounts = new Map(agents.map((agent) => [agent.agentId, agent.accountId]));
      for (const agentId of this.#running.keys()) {
        if (!accounts.has(agentId)) accounts.set(agentId, '');
      }
      for (const [agentId, accountId] of accounts) await this.reconcileAgent(agentId, accountId);
    } catch (error) {
      this.options.logger.warn({ error: (error as Error).message }, 'platform reconcile failed');
    }
  }

  /** Brings one agent's connectors on this instance in line with the agent as stored. */
  reconcileAgent(agentId: string, accountId: string): Promise<void> {
    const previous = this.#queues.get(agentId) ?? Promise.resolve();
    const next = previous
      .then(() => this.#reconcile(agentId, accountId))
      .catch((error) => {
        this.options.logger.warn({ agentId, error: (error as Error).message }, 'platform reconcile of an agent failed');
      })
      .finally(() => {
        if (this.#queues.get(agentId) === next) this.#queues.delete(agentId);
      });
    this.#queues.set(agentId, next);
    return next;
  }

  async #reconcile(agentId: string, accountId: string): Promise<void> {
    if (this.#stopped) return;
    const { repositories, catalog, secretBox } = this.options;
    const agent = accountId === '' ? null : await repositories.agents.find(accountId, agentId);
    const wanted = new Map<
      string,
      { settings: Record<string, unknown>; secrets: Record<string, string>; fingerprint: string }
    >();
    if (agent !== null && agent.status === 'active') {
      for (const entry of agent.profile.platforms) {
        const definition = catalog.definitionOf(entry.type);
        if (!entry.enabled || definition === undefined || wanted.has(entry.type)) continue;
        const sealed = Object.fromEntries(Object.entries(entry.secrets).map(([name, secret]) => [name, secret.sealed]));
        wanted.set(entry.type, {
          settings: catalog.settingsWithDefaults(entry.type, entry.settings),
          secrets: {},
          fingerprint: JSON.stringify([entry.settings, sealed]),
        });
      }
    }
    const running = this.#running.get(agentId) ?? new Map<string, Running>();
    for (const [type, current] of running) {
      const next = wanted.get(type);
      if (next !== undefined && next.fingerprint === current.fingerprint) continue;
      running.delete(type);
      await current.runner.stop();
      if (agent !== null && !current.runner.rejected) {
        const reason =
          agent.status !== 'active'
            ? `the agent is ${agent.status}`
            : next === undefined
              ? 'the platform is disabled or removed'
              : 'its settings changed';
        await this.#report(agent, type, 'stopped', reason, null);
      }
    }
    if (agent === null) {
      this.#running.delete(agentId);
      if (accountId === '' || (await repositories.platformStates.accountOf(agentId)) === null) {
        await repositories.platformStates.deleteForAgent(agentId);
      }
      return;
    }
    for (const [type, next] of wanted) {
      if (running.has(type)) continue;
      const entry = agent.profile.platforms.find((platform) => platform.type === type);
      const definition = catalog.definitionOf(type);
      if (entry === undefined || definition === undefined) continue;
      for (const [name, secret] of Object.entries(entry.secrets))
        next.secrets[name] = secretBox.open(secret.sealed, agent.id);
      const onLease = definition.runsOnLease(next.settings, { publicBaseUrl: this.#publicBaseUrl(agent, type) });
      const runner = new ConnectorRunner({
        agentId,
        type,
        definition,
        settings: next.settings,
        secrets: next.secrets,
        onLease,
        leases: this.options.leases,
        instanceId: this.options.instanceId,
        timings: this.options.timings,
        logger: this.options.logger,
        contextFor: (signal, reportFailure) => this.options.contextFor(agent, type, signal, reportFailure),
        reports: {
          state: (state, reason, holder) => this.#report(agent, type, state, reason, holder),
          credentialsRejected: async (reason) => {
            await this.#report(agent, type, 'error', reason, null);
            await this.options.markFaulted(agent, reason);
          },
        },
      });
      running.set(type, { runner, fingerprint: next.fingerprint });
    }
    if (running.size > 0) this.#running.set(agentId, running);
    else this.#running.delete(agentId);
  }

  #publicBaseUrl(agent: AgentRecord, type: string): string | undefined {
    return this.options.contextFor(agent, type, new AbortController().signal, () => undefined).publicBaseUrl;
  }

  /** Writes the state every instance reports, and the trail entry when the state changed. */
  async #report(agent: AgentRecord, type: string, state: PlatformState, reason: string | null, holder: string | null) {
    const { platformStates } = this.options.repositories;
    try {
      const previous = await platformStates.setState(
        { agentId: agent.id, type, state, reason, holder },
        isoTime(this.options.clock.now()),
      );
      if (previous === state) return;
      const event =
        state === 'running' ? 'connector.started' : state === 'error' ? 'connector.failed' : 'connector.stopped';
      if (state === 'stopped' && previous !== 'running' && previous !== 'error') return;
      await this.options.recordEvent(agent, event, { platform: type, ...(reason ? { reason } : {}) });
      this.options.logger.info({ agentId: agent.id, platform: type, state, reason }, `connector ${state}`);
    } catch (error) {
      this.options.logger.warn(
        { agentId: agent.id, platform: type, error: (error as Error).message },
        'platform state not recorded',
      );
    }
  }
}
