import type { SoakSummary } from './soak-summary.js';

/** Why a soak failed: RSS grew past the limit after warm-up, a 5xx other than the contract's 503s, or any other answer the contract does not allow. */
export function failuresOf(summary: SoakSummary, maxRssGrowthPercent: number): string[] {
  const failures: string[] = [];
  if (summary.rssGrowthPercent > maxRssGrowthPercent) {
    failures.push(`RSS grew ${summary.rssGrowthPercent}% after warm-up (limit ${maxRssGrowthPercent}%)`);
  }
  if (summary.serverErrorsOtherThan503 > 0) failures.push(`${summary.serverErrorsOtherThan503} answers 5xx`);
  if (summary.problems > 0) failures.push(`${summary.problems} answers the contract does not allow`);
  return failures;
}
