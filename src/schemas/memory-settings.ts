import {
  memoryDefaults,
  type MemorySettings,
  type MemorySettingsInputValue,
  type MemorySettingsPatchValue,
} from './memory.js';

/** An agent's memory settings, with the defaults for agents stored before memory existed. */
export function memorySettingsOf(profile: { memory?: MemorySettings | undefined }): MemorySettings {
  return profile.memory ?? { ...memoryDefaults, budgets: { ...memoryDefaults.budgets } };
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
  };
}

/** JSON Merge Patch (RFC 7396) of the settings: null resets a field (or all of them) to the default. */
export function mergeMemory(current: MemorySettings, patch: MemorySettingsPatchValue | null): MemorySettings {
  if (patch === null) return memoryFromCreate(undefined);
  const pick = <T>(value: T | null | undefined, now: T, fallback: T): T =>
    value === undefined ? now : value === null ? fallback : value;
  const budgets = patch.budgets;
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
  };
}
