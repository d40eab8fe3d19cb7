import { Type, type Static } from '@sinclair/typebox';
import { IdString, NullableInResponse, NullableTimestamp, StringEnum, Timestamp } from './common.js';

/**
 * Approvals: a call of a tool that its plugin entry marks `approval` waits
 * for a person's decision; the run pauses until then (docs/approvals.md).
 */

export const approvalStatuses = ['pending', 'approved', 'denied', 'expired'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

export const ApprovalIdParams = Type.Object(
  {
    agentId: IdString('agent'),
    approvalId: IdString('approval'),
  },
  { additionalProperties: false },
);

export const Approval = Type.Object(
  {
    id: IdString('approval'),
    agentId: IdString('agent'),
    runId: IdString('run', 'The run that paused for this decision (status `waiting` until every decision is in).'),
    toolCallId: Type.String({ description: "The model's id for the call." }),
    name: Type.String({ description: 'The tool, as the model knows it.' }),
    input: Type.Unknown({ description: 'The input the model gave (JSON).' }),
    status: StringEnum(approvalStatuses, {
      description:
        '`pending` until decided; `approved` (the tool ran), `denied` (it never ran; the model was told) or ' +
        '`expired` (no decision within its time: treated as denied).',
    }),
    reason: NullableInResponse('string', { description: 'The reason given with the decision, as the model read it.' }),
    userId: NullableInResponse('string'),
    roomId: NullableInResponse('string'),
    expiresAt: Timestamp,
    decidedAt: NullableTimestamp(),
    resumedRunId: NullableInResponse('string', {
      description:
        'The run (trigger `approval`) that goes on with the reply once every pending call of the paused run is ' +
        'decided: GET …/runs/{runId} and its events.',
    }),
    createdAt: Timestamp,
  },
  { $id: 'Approval', title: 'Approval' },
);
export type ApprovalView = Static<typeof Approval>;

/** The pending approval as a paused reply (and its `tool.approval_requested` event) carries it. */
export const PendingApproval = Type.Object(
  {
    approvalId: IdString('approval'),
    toolCallId: Type.String(),
    name: Type.String(),
    input: Type.Unknown(),
    expiresAt: Timestamp,
  },
  { $id: 'PendingApproval', title: 'PendingApproval' },
);
export type PendingApprovalView = Static<typeof PendingApproval>;

export const DecideApprovalBody = Type.Object(
  {
    decision: StringEnum(['approve', 'deny'] as const, {
      description: '`approve`: the tool runs and the model goes on; `deny`: it never runs and the model is told.',
    }),
    reason: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'Told to the model with the decision.' }),
    ),
  },
  { additionalProperties: false, title: 'DecideApproval' },
);
export type DecideApprovalInput = Static<typeof DecideApprovalBody>;

export const ListApprovalsQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(approvalStatuses)),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Approvals per page, 1–100 (default 20).' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListApprovalsQueryValue = Static<typeof ListApprovalsQuery>;

export const ApprovalList = Type.Object({
  data: Type.Array(Type.Ref(Approval)),
  pagination: Type.Object({ limit: Type.Integer(), hasMore: Type.Boolean(), nextCursor: NullableInResponse('string') }),
});
export type ApprovalListView = Static<typeof ApprovalList>;
