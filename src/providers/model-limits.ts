/**
 * How many tokens a model reads and writes at most, so that the prompt's
 * history can be cut to fit. Known families by name prefix; anything else is
 * assumed small, because local servers (Ollama, llama.cpp) often run with a
 * short context and silently drop what does not fit.
 */
const knownWindows: Array<[RegExp, number]> = [
  [/^(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|o1|o3|o4)/, 128_000],
  [/^gpt-4/, 8_192],
  [/^gpt-3\.5/, 16_385],
  [/^claude/, 200_000],
];

const defaultWindow = 8_192;
const smallLocalWindow = 4_096;
const builtinWindow = 8_192;

/** Tokens reserved for the answer when the agent sets no maxOutputTokens. */
export const defaultOutputReserve = 1_024;

export function contextWindowOf(provider: string, modelName: string): number {
  if (provider === 'builtin') return builtinWindow;
  if (provider === 'ollama') return smallLocalWindow;
  for (const [pattern, window] of knownWindows) if (pattern.test(modelName)) return window;
  return defaultWindow;
}
