/**
 * Token counts estimated without a tokenizer: about four characters per token
 * for English text with common BPE vocabularies, plus a few tokens of framing
 * per message. Used for budgets, where erring a little is harmless; replies
 * report the provider's own counts.
 */
const charactersPerToken = 4;
export const tokensPerMessage = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / charactersPerToken);
}

export function estimateMessageTokens(text: string): number {
  return estimateTokens(text) + tokensPerMessage;
}
