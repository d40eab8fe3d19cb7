import type { components, operations } from '../../../../src/client/openapi.js';

/**
 * A run's steps (GET …/runs/{runId}/steps) and one model step's prompt
 * (GET …/steps/{index}/prompt), as the API's schemas give them.
 */
export type RunSteps = operations['listRunSteps']['responses'][200]['content']['application/json'];
export type RunStep = components['schemas']['RunStep'];
export type StepPrompt = components['schemas']['RunStepPrompt'];
export type PromptMessage = StepPrompt['messages'][number];
export type PromptSection = StepPrompt['sections'][number];
