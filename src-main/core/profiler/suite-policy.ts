/**
 * How long each suite may spend on one kernel, and how many extra kernels adaptive
 * refinement may add. Pure.
 */
import type { SuiteName } from '../kernels/suites.js';
import type { StoppingRule } from './timing-stats.js';

export const SUITE_RULES: Record<SuiteName, StoppingRule> = {
  quick: { warmupRuns: 2, minRepetitions: 7, maxRepetitions: 100, targetCi: 0.02, budgetMs: 180 },
  standard: { warmupRuns: 3, minRepetitions: 10, maxRepetitions: 300, targetCi: 0.02, budgetMs: 700 },
  thorough: { warmupRuns: 5, minRepetitions: 20, maxRepetitions: 1000, targetCi: 0.01, budgetMs: 2000 },
};

export const SUITE_REFINEMENT: Record<SuiteName, number> = { quick: 6, standard: 24, thorough: 64 };

/**
 * Timing rounds: each kernel is timed again after the whole suite, and the lower
 * median is kept. Two rounds cut the run-to-run spread on a shared machine.
 */
export const SUITE_ROUNDS: Record<SuiteName, number> = { quick: 2, standard: 2, thorough: 3 };
