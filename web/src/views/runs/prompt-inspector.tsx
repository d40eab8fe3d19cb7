import { Loaded, useResource } from '../../ui/resource.js';
import { countText } from './format.js';
import { getStepPrompt } from './requests.js';
import type { PromptMessage, PromptSection, StepPrompt } from './step-types.js';

/**
 * What one model step was sent: the prompt's sections as bars against the
 * model's context window, the messages exactly as sent, and the tools
 * offered. Fetched when opened (a prompt can be large).
 */
export function PromptInspector({
  agentId,
  runId,
  index,
  title,
}: {
  agentId: string;
  runId: string;
  index: number;
  /** The inspector's heading, e.g. "Prompt of model step 2". */
  title: string;
}) {
  const [resource, reload] = useResource(
    (signal) => getStepPrompt(agentId, runId, index, signal),
    [agentId, runId, index],
  );
  return (
    <section class="prompt-inspector" aria-labelledby={`prompt-${index}-title`}>
      <h3 id={`prompt-${index}-title`}>{title}</h3>
      <Loaded resource={resource} what="the prompt" onRetry={reload}>
        {(prompt) => (
          <>
            <PromptSections prompt={prompt} />
            <h4>Messages as sent</h4>
            <ol class="prompt-messages">
              {prompt.system && (
                <li class="prompt-message prompt-system">
                  <span class="prompt-role">system</span>
                  <pre class="prompt-text">{prompt.system}</pre>
                </li>
              )}
              {prompt.messages.map((message, position) => (
                <PromptMessageItem key={position} message={message} />
              ))}
            </ol>
            <h4>Tools offered</h4>
            {prompt.tools.length === 0 ? (
              <p class="hint">None.</p>
            ) : (
              <ul class="prompt-tools">
                {prompt.tools.map((tool) => (
                  <li key={tool.name}>
                    <code>{tool.name}</code>
                    {tool.description && <span class="hint"> {tool.description}</span>}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

/**
 * One bar per section, its width the section's share of the context window
 * (of the prompt, when the window is not known), and the total.
 */
function PromptSections({ prompt }: { prompt: StepPrompt }) {
  const total = prompt.sections.reduce((sum, section) => sum + section.tokens, 0);
  const contextWindow = prompt.contextTokens;
  const scale = contextWindow && contextWindow > 0 ? contextWindow : Math.max(total, 1);
  const percent = (tokens: number) => (tokens / scale) * 100;
  const percentText = (tokens: number) => `${percent(tokens).toFixed(percent(tokens) < 1 ? 2 : 1)} %`;
  // Empty sections are named on one line rather than drawn as bars of nothing.
  const filled = prompt.sections.filter((section) => section.tokens > 0);
  const empty = prompt.sections.filter((section) => section.tokens === 0);
  return (
    <>
      <h4>
        {prompt.model.provider}/{prompt.model.name}:{' '}
        {contextWindow ? `${countText(contextWindow)} tokens of context` : 'context window not known'}
      </h4>
      <ul class="prompt-sections">
        {filled.map((section: PromptSection) => (
          <li key={section.name} class="prompt-section">
            <span class="prompt-section-label">
              {section.label}: {countText(section.tokens)} tokens
              {section.items > 0
                ? ` (${countText(section.items)} ${section.items === 1 ? 'item' : 'items'})`
                : ''} · {percentText(section.tokens)}
            </span>
            <span class="section-track" aria-hidden="true">
              <span class="section-bar" style={{ width: `${Math.min(100, percent(section.tokens))}%` }} />
            </span>
          </li>
        ))}
      </ul>
      {empty.length > 0 && <p class="hint">Empty: {empty.map((section) => section.label).join(', ')}.</p>}
      <p class="prompt-total">
        Total: {countText(total)} tokens
        {contextWindow ? ` of ${countText(contextWindow)} (${percentText(total)} of the window)` : ''}
      </p>
    </>
  );
}

function PromptMessageItem({ message }: { message: PromptMessage }) {
  return (
    <li class={`prompt-message prompt-${message.role}`}>
      <span class="prompt-role">
        {message.role}
        {message.role === 'tool' && message.toolName ? ` · ${message.toolName}` : ''}
        {message.toolCallId ? ` · ${message.toolCallId}` : ''}
      </span>
      {message.text && <pre class="prompt-text">{message.text}</pre>}
      {message.toolCalls && message.toolCalls.length > 0 && (
        <ul class="prompt-calls">
          {message.toolCalls.map((call) => (
            <li key={call.toolCallId}>
              calls <code>{call.name}</code> <code>{JSON.stringify(call.input)}</code>{' '}
              <span class="hint">({call.toolCallId})</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
