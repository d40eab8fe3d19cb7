import { randomBytes } from 'node:crypto';
import { isoTime } from '../../clock.js';
import type { PlatformSettings, RateLimitSettings } from '../../config.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import type { PlatformLeases } from '../../limits/platform-lease.js';
import type { RateLimiter } from '../../limits/rate-limiter.js';
import type { PlatformContext } from '../../platforms/platform.js';
import { PlatformSupervisor } from '../../platforms/supervisor.js';
import type { FetchFunction } from '../../plugins/plugin.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { ServiceDeps } from '../context.js';
import { newId } from '../../ids.js';
import { markAgentFaulted } from '../messages/agent-availability.js';
import { PlatformItemRepository } from '../../storage/repositories/platform-items.js';
import { PlatformItemClaims } from './platform-items.js';
import { handlePlatformMessage } from './platform-messages.js';
import { PlatformMetrics } from './platform-metrics.js';

/** `lastEventAt` is written at most this often per connector: a busy bot does not write on every message. */
const markEveryMs = 1_000;

export interface PlatformRuntimeOptions {
  deps: ServiceDeps;
  rateLimiter: RateLimiter;
  rateLimits: RateLimitSettings | null;
  settings: PlatformSettings;
  /** The SSRF-safe client (src/outbound/), for calls to user-given URLs (webhook callbacks). */
  fetch: FetchFunction;
  leases: PlatformLeases;
}

/** What the composition root keeps of the platforms: the supervisor and the connectors' contexts. */
export interface PlatformRuntime {
  supervisor: PlatformSupervisor;
  contextFor(
    agent: AgentRecord,
    type: string,
    signal: AbortSignal,
    reportFailure?: (error: unknown) => void,
  ): PlatformContext;
  /** Posts the social connectors took and made (agentd_platform_posts_total). */
  metrics: PlatformMetrics;
  /** The claims of inbound items on this instance and the sweep that takes over those left unanswered. */
  items: PlatformItemClaims;
  close(): Promise<void>;
}

/** A name for this instance, unless the operator gave one: random, so it says nothing about the host. */
export function newInstanceId(): string {
  return `instance-${randomBytes(6).toString('hex')}`;
}

export function createPlatformRuntime(options: PlatformRuntimeOptions): PlatformRuntime {
  const { deps, settings } = options;
  const { repositories, clock, logger } = deps;
  const apiBaseUrls: Record<string, string | null> = {
    telegram: settings.telegramApiUrl,
    slack: settings.slackApiUrl,
    discord: settings.discordApiUrl,
    x: settings.xApiUrl,
    bluesky: settings.blueskyServiceUrl,
  };
  const metrics = new PlatformMetrics();
  // An item's claim lives as long as a connector's lease: the same bound on how long a dead instance holds work.
  const items = new PlatformItemClaims({
    items: new PlatformItemRepository(repositories.db),
    instanceId: deps.platforms.instanceId,
    clock,
    logger,
    claimMs: settings.leaseMs,
  });
  const eventWriter = () => ({
    events: repositories.agentEvents,
    clock,
    actor: 'service' as const,
    requestId: null,
    outbox: deps.webhooks.outbox,
  });

  const contextFor: PlatformRuntime['contextFor'] = (agent, type, signal, reportFailure) => {
    let markedAt = Number.NEGATIVE_INFINITY;
    const apiBaseUrl = apiBaseUrls[type] ?? null;
    return {
      agentId: agent.id,
      accountId: agent.accountId,
      ...(apiBaseUrl !== null ? { apiBaseUrl } : {}),
      ...(settings.publicBaseUrl !== null ? { publicBaseUrl: settings.publicBaseUrl } : {}),
      fetch: options.fetch,
      clock,
      logger,
      signal,
      handleMessage: (message, messageOptions) =>
        handlePlatformMessage(
          { deps, rateLimiter: options.rateLimiter, rateLimits: options.rateLimits },
          agent,
          type,
          message,
          messageOptions?.signal ?? signal,
        ),
      markEvent: () => {
        const now = clock.now();
        if (now - markedAt < markEveryMs) return;
        markedAt = now;
        repositories.platformStates.markEvent(agent.id, type, isoTime(now)).catch(() => undefined);
      },
      positions: {
        last: () => repositories.platformStates.position(agent.id, type),
        lastText: () => repositories.platformStates.positionText(agent.id, type),
        claim: async (position) => {
          // The row exists once the connector has reported a state; a read may come first.
          if ((await repositories.platformStates.position(agent.id, type)) === null) {
            await repositories.platformStates.ensure(agent.id, type, isoTime(clock.now()));
          }
          return repositories.platformStates.claimPosition(agent.id, type, position);
        },
      },
      items: {
        take: (itemId, pending) => items.take({ agentId: agent.id, type, itemId }, pending, signal, logger),
        answerTakenOver: (answer) => items.register(agent.id, type, answer, signal),
      },
      dailyPosts: {
        take: (cap) =>
          repositories.platformStates.takeDailyPost(agent.id, type, isoTime(clock.now()).slice(0, 10), cap),
      },
      recordPost: (direction, data) => {
        metrics.posts.inc({ platform: type, direction });
        const event = direction === 'received' ? 'connector.received' : 'connector.posted';
        recordAgentEvent(eventWriter(), agent, event, { platform: type, ...data }, repositories.db).catch((error) => {
          logger.warn({ agentId: agent.id, platform: type, error: (error as Error).message }, 'post not recorded');
        });
      },
      reportFailure: reportFailure ?? (() => undefined),
      readFile: async (fileId) => {
        const found = await deps.files.store.read(agent.accountId, fileId);
        return found === null ? null : { bytes: found.bytes, mediaType: found.file.mediaType };
      },
    };
  };

  const serviceContext = () => ({
    deps,
    actor: { accountId: '', keyId: 'service', scopes: new Set<string>() },
    requestId: newId('request'),
  });

  const supervisor = new PlatformSupervisor({
    catalog: deps.platforms.catalog,
    repositories,
    secretBox: deps.secretBox,
    leases: options.leases,
    instanceId: deps.platforms.instanceId,
    clock,
    logger,
    timings: {
      changePollMs: settings.changePollMs,
      reconcileMs: settings.reconcileMs,
      leaseRetryMs: Math.max(200, Math.floor(settings.leaseMs / 5)),
      retryMinMs: 1_000,
      retryMaxMs: 60_000,
    },
    contextFor,
    recordEvent: async (agent, type, data) => {
      await recordAgentEvent(eventWriter(), agent, type, data, repositories.db);
    },
    markFaulted: async (agent, reason) => {
      const current = await repositories.agents.find(agent.accountId, agent.id);
      if (current === null || current.status !== 'active') return;
      await markAgentFaulted(serviceContext(), current, reason);
    },
  });

  return {
    supervisor,
    contextFor,
    metrics,
    items,
    async close() {
      items.close();
      await supervisor.stop();
      await options.leases.close();
    },
  };
}
