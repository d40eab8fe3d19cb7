/**
 * The agent the throughput benches create: shaped like a real one (a bio,
 * personality, knowledge, goals, a platform secret to mask, metadata). The
 * Telegram entry is disabled: the same stored shape, with settings that pass
 * validation, but no connector polling Telegram during a run.
 */
export function benchAgentBody(index: number | null = null) {
  const suffix = index === null ? '' : ` ${index}`;
  return {
    name: `Ava${suffix}`,
    bio: ['Ava is a DeFi research assistant.', 'She explains risks before returns.'],
    personality: { traits: ['curious', 'precise'], style: ['short sentences'], tone: 'friendly' },
    expertise: ['defi', 'ethereum', 'lending'],
    knowledge: ['Gas is paid in ETH.', { title: 'Fees', content: 'Fees rise with network demand.' }],
    goals: { objectives: ['explain risks'], motivations: ['protect users'] },
    platforms: [
      {
        type: 'telegram',
        enabled: false,
        settings: { pollTimeoutSeconds: 25 },
        secrets: { botToken: `123456:${index ?? ''}ABCDEFGH4f2a` },
      },
    ],
    metadata: { team: 'research' },
  };
}
