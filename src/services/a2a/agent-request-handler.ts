import { randomUUID } from 'node:crypto';
import { TaskState, type AgentCard, type Message, type StreamResponse, type Task } from '@a2a-js/sdk';
import {
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { AppError } from '../../errors.js';
import { isId } from '../../ids.js';
import { messageLimits } from '../../schemas/messages.js';
import type { ServiceContext } from '../context.js';
import type { RateCheck } from '../mcp/agent-tools.js';
import { sendMessage } from '../messages/send-message.js';
import type { Reply } from '../messages/reply.js';
import { cancelRun, getRun } from '../runs/runs.js';
import { messageOf, replyArtifact, statusOf, taskOfReply, taskOfRun, textPart } from './task-view.js';

type SendParams = Parameters<A2ARequestHandler['sendMessage']>[0];

/**
 * What an A2A client is told when a request fails on our side: the catalog's
 * code and detail, which are written for clients; never an internal message.
 */
export function clientError(error: unknown): Error {
  if (error instanceof AppError) return new Error(`${error.code}: ${error.detail}`);
  return new Error('internal: An unexpected error occurred; it has been logged with the request id.');
}

/**
 * One agent's A2A requests for one HTTP request of its account, on agentd's
 * own services: a message is a message to the agent (trigger `a2a`, the same
 * limits, memory, tools and run), its task is the run, `contextId` is the
 * room. Push notifications, task lists and resubscription are not offered.
 */
export class AgentRequestHandler implements A2ARequestHandler {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly agentId: string,
    private readonly card: AgentCard,
    private readonly rateCheck: RateCheck,
    /** Aborted when the client goes away: the reply stops as it would on the messages route. */
    private readonly signal: AbortSignal,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError('This agent has no extended card.');
  }

  /** The text of the message (its text parts), and its conversation: a new one when it names none. */
  #input(params: SendParams): { text: string; contextId: string; message: Message } {
    const message = params.message;
    if (message === undefined) throw new RequestMalformedError('params.message is required');
    const text = message.parts
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .join('\n')
      .trim();
    if (text === '') throw new RequestMalformedError('The message needs a text part: agents read text only.');
    if (text.length > messageLimits.text) {
      throw new RequestMalformedError(`The message text must be at most ${messageLimits.text} characters.`);
    }
    const contextId = message.contextId === '' ? randomUUID() : message.contextId;
    if (contextId.length > messageLimits.participantId) {
      throw new RequestMalformedError(`contextId must be at most ${messageLimits.participantId} characters.`);
    }
    return { text, contextId, message };
  }

  async #start(params: SendParams, streamed: boolean): Promise<{ reply: Reply; contextId: string; message: Message }> {
    const { text, contextId, message } = this.#input(params);
    try {
      await this.rateCheck('sendMessage', this.ctx.actor.accountId, this.agentId);
      const reply = await sendMessage({
        ctx: this.ctx,
        agentId: this.agentId,
        input: { text, roomId: contextId, stream: streamed },
        signal: this.signal,
        trigger: 'a2a',
      });
      return { reply, contextId, message };
    } catch (error) {
      throw clientError(error);
    }
  }

  async sendMessage(params: SendParams): Promise<Task> {
    const { reply, contextId, message } = await this.#start(params, false);
    for await (const event of reply.events()) {
      if (event.type === 'completed') return taskOfReply(event.reply, contextId, message);
      if (event.type === 'failed') {
        const runId = reply.started.runId;
        const text = `${event.error.code}: ${event.error.detail}`;
        return {
          id: runId,
          contextId,
          status: statusOf(
            TaskState.TASK_STATE_FAILED,
            new Date().toISOString(),
            messageOf({ messageId: `${runId}-error`, contextId, taskId: runId, role: 'agent', text }),
          ),
          artifacts: [],
          history: [{ ...message, taskId: runId, contextId }],
          metadata: { agentId: this.agentId },
        };
      }
    }
    throw clientError(new AppError('internal', 'The reply ended without an outcome.'));
  }

  /**
   * The task at once (working), then each piece of text as an artifact update
   * appended to the reply, a status update for each tool call, and a last
   * status update: completed (with the whole reply), failed or canceled.
   */
  async *sendMessageStream(params: SendParams): AsyncGenerator<StreamResponse, void, undefined> {
    const { reply, contextId, message } = await this.#start(params, true);
    const taskId = reply.started.runId;
    const artifactId = reply.started.id;
    const now = () => new Date().toISOString();
    const status = (state: TaskState, text?: string, messageId = `${taskId}-status`) => ({
      payload: {
        $case: 'statusUpdate' as const,
        value: {
          taskId,
          contextId,
          status: statusOf(
            state,
            now(),
            text === undefined ? undefined : messageOf({ messageId, contextId, taskId, role: 'agent', text }),
          ),
          metadata: undefined,
        },
      },
    });
    yield {
      payload: {
        $case: 'task',
        value: {
          id: taskId,
          contextId,
          status: statusOf(TaskState.TASK_STATE_WORKING, now()),
          artifacts: [],
          history: [{ ...message, taskId, contextId }],
          metadata: { agentId: this.agentId },
        },
      },
    };
    let first = true;
    for await (const event of reply.events()) {
      if (event.type === 'delta') {
        const artifact = { ...replyArtifact(artifactId, event.text), parts: [textPart(event.text)] };
        yield {
          payload: {
            $case: 'artifactUpdate',
            value: { taskId, contextId, artifact, append: !first, lastChunk: false, metadata: undefined },
          },
        };
        first = false;
      } else if (event.type === 'tool-called') {
        yield status(TaskState.TASK_STATE_WORKING, `Using the tool ${event.call.name}.`, `${taskId}-tool-${event.seq}`);
      } else if (event.type === 'completed') {
        const aborted = event.reply.finishReason === 'aborted';
        yield status(
          aborted ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_COMPLETED,
          event.reply.text,
          event.reply.id,
        );
      } else if (event.type === 'failed') {
        yield status(TaskState.TASK_STATE_FAILED, `${event.error.code}: ${event.error.detail}`);
      }
    }
  }

  async getTask(params: { id: string; historyLength?: number | undefined }): Promise<Task> {
    if (!isId('run', params.id)) throw new TaskNotFoundError(`Task ${params.id.slice(0, 100)} not found.`);
    try {
      await this.rateCheck('readRuns', this.ctx.actor.accountId, this.agentId);
      return taskOfRun(await getRun({ ctx: this.ctx, agentId: this.agentId, runId: params.id }), params.historyLength);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        throw new TaskNotFoundError(`Task ${params.id} not found.`);
      }
      throw clientError(error);
    }
  }

  async cancelTask(params: { id: string }): Promise<Task> {
    if (!isId('run', params.id)) throw new TaskNotFoundError(`Task ${params.id.slice(0, 100)} not found.`);
    try {
      await this.rateCheck('cancelRuns', this.ctx.actor.accountId, this.agentId);
      return taskOfRun(await cancelRun({ ctx: this.ctx, agentId: this.agentId, runId: params.id }));
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        throw new TaskNotFoundError(`Task ${params.id} not found.`);
      }
      if (error instanceof AppError && error.code === 'conflict') throw new TaskNotCancelableError(error.detail);
      throw clientError(error);
    }
  }

  async listTasks(): Promise<never> {
    throw new UnsupportedOperationError('Tasks are listed with GET /v1/agents/{agentId}/runs?trigger=a2a.');
  }

  async *resubscribe(): AsyncGenerator<StreamResponse, void, undefined> {
    throw new UnsupportedOperationError(
      'Resubscription is not offered; a task’s events can be read at GET /v1/agents/{agentId}/runs/{taskId}/events.',
    );
  }

  async createTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError();
  }

  async getTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError();
  }

  async listTaskPushNotificationConfigs(): Promise<never> {
    throw new PushNotificationNotSupportedError();
  }

  async deleteTaskPushNotificationConfig(): Promise<never> {
    throw new PushNotificationNotSupportedError();
  }
}
