import type { CreateTaskBody, DeletedTask, Run, Task, TaskList, UpdateTaskBody } from '../../../../src/client/types.js';
import { request } from '../../api.js';

export type { CreateTaskBody, Task, UpdateTaskBody };

const tasksPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}/tasks`;
const taskPath = (agentId: string, taskId: string) => `${tasksPath(agentId)}/${encodeURIComponent(taskId)}`;

/** An agent has at most 100 tasks (docs/tasks.md): one page of 100 is all of them. */
export const listTasks = (agentId: string, signal?: AbortSignal) =>
  request<TaskList>('GET', tasksPath(agentId), { query: { limit: 100 }, signal });

export const createTask = (agentId: string, body: CreateTaskBody) =>
  request<Task>('POST', tasksPath(agentId), { body });

export const updateTask = (agentId: string, taskId: string, body: UpdateTaskBody) =>
  request<Task>('PATCH', taskPath(agentId, taskId), { body });

export const deleteTask = (agentId: string, taskId: string) =>
  request<DeletedTask>('DELETE', taskPath(agentId, taskId));

/** Starts a run now (202 with the queued run), whatever the schedule says. */
export const runTask = (agentId: string, taskId: string) => request<Run>('POST', `${taskPath(agentId, taskId)}/run`);
