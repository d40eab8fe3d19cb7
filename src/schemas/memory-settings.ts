import {
  memoryDefaults,
  type MemorySettings,
  type MemorySettingsInputValue,
  type MemorySettingsPatchValue,
} from './memory.js';

/** Memory settings as stored: agents stored before the schedule existed have none. */
type StoredMemorySettings = Omit<MemorySettings, 'schedule'> & { schedule?: MemorySettings['schedule'] };

/** An agent's memory settings, with the defaults for agents stored before memory (or its schedule) existed. */
export function memorySettingsOf(profile: { memory?: StoredMemorySettings | undefined }): MemorySettings {
  const memory = profile.memory;
  if (memory === undefined) {
    return { ...memoryDefaults, budgets: { ...memoryDefaults.budgets }, schedule: { ...memoryDefaults.schedule } };
  }
  return memory.schedule !== undefined
    ? (memory as MemorySettings)
    : { ...memory, schedule: { ...memoryDefaults.schedule } };
}

export function memoryFromCreate(input: MemorySettingsInputValue | undefined): MemorySettings {
  const budgets = input?.budgets;
  return {
    summary: input?.summary ?? memoryDefaults.summary,
    facts: input?.facts ?? memoryDefaults.facts,
    recall: input?.recall ?? memoryDefaults.recall,
    budgets: {
      historyTokens: budgets?.historyTokens ?? memoryDefaults.budgets.historyTokens,
      summaryTokens: budgets?.summaryTokens ?? memoryDefaults.budgets.summaryTokens,
      factsTokens: budgets?.factsTokens ?? memoryDefaults.budgets.factsTokens,
      recallTokens: budgets?.recallTokens ?? memoryDefaults.budgets.recallTokens,
    },
    schedule: {
      everyUserTurns: input?.schedule?.everyUserTurns ?? memoryDefaults.schedule.everyUserTurns,
      idleSeconds: input?.schedule?.idleSeconds ?? memoryDefaults.schedule.idleSeconds,
    },
  };
}

/** JSON Merge Patch (RFC 7396) of the settings: null resets a field (or all of them) to the default. */
export function mergeMemory(current: MemorySettings, patch: MemorySettingsPatchValue | null): MemorySettings {
  if (patch === null) return memoryFromCreate(undefined);
  const pick = <T>(value: T | null | undefined, now: T, fallback: T): T =>
    value === undefined ? now : value === null ? fallback : value;
  const budgets = patch.budgets;
  const schedule = patch.schedule;
  const defaults = memoryDefaults.budgets;
  return {
    summary: pick(patch.summary, current.summary, memoryDefaults.summary),
    facts: pick(patch.facts, current.facts, memoryDefaults.facts),
    recall: pick(patch.recall, current.recall, memoryDefaults.recall),
    budgets:
      budgets === null
        ? { ...defaults }
        : budgets === undefined
          ? current.budgets
          : {
              historyTokens: pick(budgets.historyTokens, current.budgets.historyTokens, defaults.historyTokens),
              summaryTokens: pick(budgets.summaryTokens, current.budgets.summaryTokens, defaults.summaryTokens),
              factsTokens: pick(budgets.factsTokens, current.budgets.factsTokens, defaults.factsTokens),
              recallTokens: pick(budgets.recallTokens, current.budgets.recallTokens, defaults.recallTokens),
            },
    schedule:
      schedule === null
        ? { ...memoryDefaults.schedule }
        : schedule === undefined
          ? current.schedule
          : {
              everyUserTurns: pick(
                schedule.everyUserTurns,
                current.schedule.everyUserTurns,
                memoryDefaults.schedule.everyUserTurns,
              ),
              idleSeconds: pick(
                schedule.idleSeconds,
                current.schedule.idleSeconds,
                memoryDefaults.schedule.idleSeconds,
              ),
            },
  };
}
