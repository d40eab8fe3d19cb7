import type { components, operations } from './openapi.js';

/** The shapes a client of agentd sees, named after the server's OpenAPI components and operations. */
type Schemas = components['schemas'];

export type Agent = Schemas['Agent'];
export type MessageReply = Schemas['MessageReply'];
export type ToolCall = Schemas['ToolCall'];
export type Problem = Schemas['Problem'];
export type Run = Schemas['Run'];
export type Approval = Schemas['Approval'];
export type PendingApproval = Schemas['PendingApproval'];
export type ErrorCode = Problem['code'];

export type ListAgentsQuery = NonNullable<operations['listAgents']['parameters']['query']>;
export type CreateAgentBody = operations['createAgent']['requestBody']['content']['application/json'];
export type DeletedAgent = operations['deleteAgent']['responses'][200]['content']['application/json'];
export type SendMessageBody = operations['sendMessage']['requestBody']['content']['application/json'];
export type ListRunsQuery = NonNullable<operations['listRuns']['parameters']['query']>;
export type ListApprovalsQuery = NonNullable<operations['listApprovals']['parameters']['query']>;
export type ApprovalList = operations['listApprovals']['responses'][200]['content']['application/json'];
export type RunList = operations['listRuns']['responses'][200]['content']['application/json'];
export type TaskList = operations['listTasks']['responses'][200]['content']['application/json'];
export type DecideApprovalBody = operations['decideApproval']['requestBody']['content']['application/json'];

export type Task = Schemas['Task'];
export type CreateTaskBody = operations['createTask']['requestBody']['content']['application/json'];
export type UpdateTaskBody = operations['updateTask']['requestBody']['content']['application/json'];
export type DeletedTask = operations['deleteTask']['responses'][200]['content']['application/json'];
