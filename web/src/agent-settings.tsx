import {
  memoryBudgetNames,
  memoryScheduleNames,
  spendLimitNames,
  type AgentFormState,
  type MemoryForm,
  type SpendLimitName,
} from './agent-body.js';
import { Field, fieldId, GroupErrors, groupProps } from './fields.js';
import { hrefOf } from './route.js';
import type { KnowledgeBase } from './views/knowledge/requests.js';

/**
 * The agent form's parts for what the agent draws on and how it is reached:
 * the knowledge bases it retrieves from, its long-term memory, whether MCP
 * clients see it as a tool of its own, and its spend limits.
 */

const memoryNumberLabels: Record<(typeof memoryBudgetNames)[number] | (typeof memoryScheduleNames)[number], string> = {
  historyTokens: 'Recent turns (tokens)',
  summaryTokens: 'Summary (tokens)',
  factsTokens: 'Facts (tokens)',
  recallTokens: 'Recalled turns (tokens)',
  everyUserTurns: 'Extract facts every … user turns',
  idleSeconds: 'Or after … seconds idle',
};

const memoryNumberHints: Record<keyof typeof memoryNumberLabels, string> = {
  historyTokens: 'Empty: the default (the smaller of 3,000 and half the context window).',
  summaryTokens: '0–32,000.',
  factsTokens: '0–32,000.',
  recallTokens: '0–32,000.',
  everyUserTurns: '1–50.',
  idleSeconds: '10–86,400.',
};

const spendLabels: Record<SpendLimitName, string> = {
  tokensPerDay: 'Tokens per UTC day',
  tokensPerMonth: 'Tokens per UTC month',
  costPerDay: 'US dollars per UTC day',
  costPerMonth: 'US dollars per UTC month',
};

const memorySwitches: Array<{ name: 'summary' | 'facts' | 'recall'; label: string }> = [
  { name: 'summary', label: 'Keep a rolling summary of turns that leave the window' },
  { name: 'facts', label: 'Extract facts about each user' },
  { name: 'recall', label: 'Recall earlier turns relevant to the message' },
];

/** Every pointer these parts have a field for, so the server's errors read at them. */
export const settingsPointers = [
  '/knowledgeBases',
  '/memory',
  ...memorySwitches.map((entry) => `/memory/${entry.name}`),
  ...memoryBudgetNames.map((name) => `/memory/budgets/${name}`),
  ...memoryScheduleNames.map((name) => `/memory/schedule/${name}`),
  '/mcp/exposed',
  '/limits',
  ...spendLimitNames.map((name) => `/limits/spend/${name}`),
];

interface Props {
  form: AgentFormState;
  knowledgeBases: KnowledgeBase[];
  errors: Map<string, string[]>;
  onChange: (update: Partial<AgentFormState>) => void;
}

export function AgentSettings({ form, knowledgeBases, errors, onChange }: Props) {
  const setMemory = (update: Partial<MemoryForm>) => onChange({ memory: { ...form.memory, ...update } });
  const basesId = fieldId('/knowledgeBases');
  const basesErrors = errors.get('/knowledgeBases');
  // An attached base the list does not hold (deleted meanwhile) is still shown, so saving does not drop it unseen.
  const unknownIds = form.knowledgeBases.filter((id) => !knowledgeBases.some((base) => base.id === id));
  const toggleBase = (id: string, on: boolean) =>
    onChange({
      knowledgeBases: on ? [...form.knowledgeBases, id] : form.knowledgeBases.filter((attached) => attached !== id),
    });

  const number = (pointer: string, label: string, value: string, hint: string, update: (value: string) => void) => (
    <Field pointer={pointer} label={label} errors={errors.get(pointer)} hint={hint}>
      {(props) => (
        <input
          {...props}
          type="text"
          inputMode="decimal"
          value={value}
          onInput={(event) => update(event.currentTarget.value)}
        />
      )}
    </Field>
  );

  return (
    <>
      <fieldset id={basesId} {...groupProps(basesId, basesErrors)}>
        <legend>Knowledge bases</legend>
        <GroupErrors id={basesId} errors={basesErrors} />
        <p class="hint">
          The agent retrieves from these for every message and cites them in its replies (at most 20). Create and fill
          them in <a href={hrefOf({ name: 'knowledge' })}>Knowledge</a>.
        </p>
        {knowledgeBases.length === 0 && unknownIds.length === 0 && (
          <p class="hint">This account has no knowledge bases yet.</p>
        )}
        {knowledgeBases.map((base) => (
          <div class="check" key={base.id}>
            <input
              id={`knowledge-base-${base.id}`}
              type="checkbox"
              checked={form.knowledgeBases.includes(base.id)}
              onChange={(event) => toggleBase(base.id, event.currentTarget.checked)}
            />
            <label for={`knowledge-base-${base.id}`}>{base.name}</label>
          </div>
        ))}
        {unknownIds.map((id) => (
          <div class="check" key={id}>
            <input
              id={`knowledge-base-${id}`}
              type="checkbox"
              checked
              onChange={(event) => toggleBase(id, event.currentTarget.checked)}
            />
            <label for={`knowledge-base-${id}`}>
              <code>{id}</code> (not among this account's knowledge bases)
            </label>
          </div>
        ))}
      </fieldset>

      <fieldset>
        <legend>Memory</legend>
        <GroupErrors id={fieldId('/memory')} errors={errors.get('/memory')} />
        {memorySwitches.map((entry) => (
          <div class="check" key={entry.name}>
            <input
              id={fieldId(`/memory/${entry.name}`)}
              type="checkbox"
              checked={form.memory[entry.name]}
              onChange={(event) => setMemory({ [entry.name]: event.currentTarget.checked })}
            />
            <label for={fieldId(`/memory/${entry.name}`)}>{entry.label}</label>
          </div>
        ))}
        <p class="hint">Prompt share of each part, and when memory work runs. Empty: the default.</p>
        <div class="grid">
          {memoryBudgetNames.map((name) =>
            number(
              `/memory/budgets/${name}`,
              memoryNumberLabels[name],
              form.memory[name],
              memoryNumberHints[name],
              (value) => setMemory({ [name]: value }),
            ),
          )}
          {memoryScheduleNames.map((name) =>
            number(
              `/memory/schedule/${name}`,
              memoryNumberLabels[name],
              form.memory[name],
              memoryNumberHints[name],
              (value) => setMemory({ [name]: value }),
            ),
          )}
        </div>
      </fieldset>

      <fieldset>
        <legend>Spend limits</legend>
        <GroupErrors id={fieldId('/limits')} errors={errors.get('/limits')} />
        <p class="hint">
          A message to the agent is refused once one is reached, until the UTC day or month resets; the account's limits
          apply too. Empty: no limit.
        </p>
        <div class="grid">
          {spendLimitNames.map((name) =>
            number(`/limits/spend/${name}`, spendLabels[name], form.spend[name], '', (value) =>
              onChange({ spend: { ...form.spend, [name]: value } }),
            ),
          )}
        </div>
      </fieldset>

      <fieldset>
        <legend>MCP</legend>
        <div class="check">
          <input
            id={fieldId('/mcp/exposed')}
            type="checkbox"
            checked={form.mcpExposed}
            aria-describedby={`${fieldId('/mcp/exposed')}-hint`}
            onChange={(event) => onChange({ mcpExposed: event.currentTarget.checked })}
          />
          <label for={fieldId('/mcp/exposed')}>Offer this agent as its own tool on the MCP server</label>
          <p id={`${fieldId('/mcp/exposed')}-hint`} class="hint">
            MCP clients of the account then see an <code>ask_</code> tool named after the agent at /v1/mcp. Every agent
            can be reached with <code>send_message</code> either way.
          </p>
        </div>
        <GroupErrors id={fieldId('/mcp/exposed')} errors={errors.get('/mcp/exposed')} />
      </fieldset>
    </>
  );
}
