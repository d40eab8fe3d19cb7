import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import pino from 'pino';
import type { HistoryTurn } from '../../src/conversation/history-window.js';
import {
  foldShare,
  foldsNothingNew,
  isOutside,
  isSmallTalk,
  leavingShare,
  planMemoryWork,
  windowStartAt,
  type WaitingMemoryWork,
} from '../../src/conversation/memory/memory-schedule.js';
import { memoryDefaults } from '../../src/schemas/memory.js';
import { MemoryWorker } from '../../src/services/memory/memory-worker.js';
import type {
  MemoryJob,
  MemoryPassResult,
  MemoryWorkDeps,
} from '../../src/services/memory/update-conversation-memory.js';

const schedule = { everyUserTurns: 8, idleSeconds: 600 };
const nothing: WaitingMemoryWork = { factTurns: 0, factTurnsAll: 0, factTurnLeaving: false, summaryTurnLeaving: false };
const onExchange = { idle: false };

describe('memory schedule: when facts and the summary are brought up to date', () => {
  it('extracts facts once everyUserTurns turns that say something wait, not before', () => {
    for (let waiting = 1; waiting < 8; waiting += 1) {
      const plan = planMemoryWork({ ...nothing, factTurns: waiting, factTurnsAll: waiting }, schedule, onExchange);
      assert.deepEqual(plan, { facts: false, summary: false, waiting: true }, `${waiting} turns wait`);
    }
    assert.deepEqual(planMemoryWork({ ...nothing, factTurns: 8, factTurnsAll: 8 }, schedule, onExchange), {
      facts: true,
      summary: false,
      waiting: false,
    });
    // Small talk does not count towards the batch.
    assert.equal(planMemoryWork({ ...nothing, factTurns: 7, factTurnsAll: 12 }, schedule, onExchange).facts, false);
    // everyUserTurns 1 is the behaviour before schedules: after every exchange.
    const everyTurn = { ...schedule, everyUserTurns: 1 };
    assert.equal(planMemoryWork({ ...nothing, factTurns: 1, factTurnsAll: 1 }, everyTurn, onExchange).facts, true);
  });

  it('does what waits once the conversation is idle, and on every exchange for the builtin model', () => {
    const one = { ...nothing, factTurns: 1, factTurnsAll: 1 };
    assert.deepEqual(planMemoryWork(one, schedule, { idle: true }), { facts: true, summary: false, waiting: false });
    assert.equal(planMemoryWork(one, schedule, { idle: false, everyExchange: true }).facts, true);
    // Idle with nothing waiting: nothing to do.
    assert.deepEqual(planMemoryWork(nothing, schedule, { idle: true }), {
      facts: false,
      summary: false,
      waiting: false,
    });
  });

  it('reads a turn for facts and folds it into the summary before the window drops it, whatever the count', () => {
    const leaving = { ...nothing, factTurns: 1, factTurnsAll: 1, factTurnLeaving: true };
    assert.equal(planMemoryWork(leaving, { ...schedule, everyUserTurns: 50 }, onExchange).facts, true);
    // Even small talk alone is passed (without a model call) before it leaves, so the marker never lags the window.
    assert.equal(planMemoryWork({ ...leaving, factTurns: 0 }, schedule, onExchange).facts, true);
    assert.deepEqual(planMemoryWork({ ...nothing, summaryTurnLeaving: true }, schedule, onExchange), {
      facts: false,
      summary: true,
      waiting: false,
    });
  });

  it('finds the turns leaving the window: outside three quarters of it, folded ahead to half of it', () => {
    // 20 exchanges of about 14 tokens each (user and agent turn, framing included), newest first.
    const oldestFirst: HistoryTurn[] = [];
    for (let index = 0; index < 20; index += 1) {
      const id = String(index).padStart(3, '0');
      oldestFirst.push({ id: `msg_${id}a`, role: 'user', userId: 'u', text: `question ${id}` });
      oldestFirst.push({ id: `msg_${id}b`, role: 'agent', userId: null, text: `answer ${id}` });
    }
    const newestFirst = [...oldestFirst].reverse();
    const render = (turn: HistoryTurn) => turn.text;
    const full = windowStartAt(newestFirst, 140, 200, 1, render);
    const leaving = windowStartAt(newestFirst, 140, 200, leavingShare, render);
    const fold = windowStartAt(newestFirst, 140, 200, foldShare, render);
    assert.equal(full, 'msg_010a', 'the prompt shows the last 10 exchanges');
    assert.equal(leaving, 'msg_013a', 'the oldest of them are leaving');
    assert.equal(fold, 'msg_015a');
    assert.ok(!isOutside('msg_011a', full) && isOutside('msg_011a', leaving), 'still shown, but leaving');
    assert.ok(isOutside('msg_014b', fold) && !isOutside('msg_015a', fold));
    // The turn bound counts too: 200 turns at most in a prompt, 150 before a turn is leaving.
    const many = Array.from({ length: 400 }, (_, index) => ({
      id: `msg_${String(399 - index).padStart(3, '0')}`,
      role: index % 2 === 0 ? ('agent' as const) : ('user' as const),
      userId: null,
      text: 'x',
    }));
    assert.equal(windowStartAt(many, 1_000_000, 200, leavingShare, render), 'msg_250');
    // No room at all: every turn is outside.
    assert.equal(windowStartAt(newestFirst, 0, 200, leavingShare, render), null);
    assert.ok(isOutside('msg_019b', null));
  });

  it('counts greetings, thanks and acknowledgements alone as nothing new, and anything else as something', () => {
    for (const text of [
      'Hi!',
      'hello there',
      'Thanks!!',
      'Thank you so much',
      'ok 👍',
      'Okay, got it.',
      '🙂',
      'lol',
      'Merci',
      'Good morning!',
      '',
    ]) {
      assert.equal(isSmallTalk(text), true, text);
    }
    for (const text of [
      'My name is Bo',
      'no',
      'yes',
      'sure',
      'Thanks, I live in Porto now',
      'ok 42',
      'hola, soy Ana',
      'Call me Kim',
      'thanks '.repeat(13),
    ]) {
      assert.equal(isSmallTalk(text), false, text);
    }
    assert.equal(
      foldsNothingNew([
        { role: 'user', text: 'hi' },
        { role: 'agent', text: 'Hello! How can I help you today?' },
        { role: 'user', text: 'thanks' },
      ]),
      true,
    );
    assert.equal(
      foldsNothingNew([
        { role: 'user', text: 'ok' },
        { role: 'agent', text: `Done: I booked ${'the Monday flight to Lisbon, window seat, '.repeat(4)}` },
      ]),
      false,
      'a long answer to an acknowledgement says something',
    );
    assert.equal(foldsNothingNew([{ role: 'user', text: 'I moved to Faro' }]), false);
  });

  it('has the documented defaults', () => {
    assert.deepEqual(memoryDefaults.schedule, { everyUserTurns: 8, idleSeconds: 600 });
  });
});

describe('memory worker: the idle flush', () => {
  const job: MemoryJob = { accountId: 'acc_1', agentId: 'agt_1', conversation: 'user:ana' };
  const deps = { logger: pino({ level: 'silent' }) } as unknown as MemoryWorkDeps;
  let passes: MemoryJob[];
  let worker: MemoryWorker;
  /** A pass that leaves facts waiting (as a conversation short of a batch) until it is run on idle. */
  const update = async (_deps: MemoryWorkDeps, pass: MemoryJob): Promise<MemoryPassResult> => {
    passes.push(pass);
    return { more: false, idleSeconds: pass.idle === true ? null : 600 };
  };

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    passes = [];
    worker = new MemoryWorker(deps, { update });
  });
  afterEach(async () => {
    await worker.close();
    mock.timers.reset();
  });

  it('runs the waiting work once the conversation has had no message for its idle time', async () => {
    worker.schedule(job);
    await worker.whenIdle();
    assert.deepEqual(passes, [job]);
    assert.equal(worker.waiting, 1);
    mock.timers.tick(599_999);
    await worker.whenIdle();
    assert.equal(passes.length, 1, 'not before the idle time');
    mock.timers.tick(1);
    await worker.whenIdle();
    assert.deepEqual(passes.at(-1), { ...job, idle: true });
    assert.equal(worker.waiting, 0, 'nothing waits after the flush');
  });

  it('starts the idle time again with each new message', async () => {
    worker.schedule(job);
    await worker.whenIdle();
    mock.timers.tick(400_000);
    worker.schedule(job);
    await worker.whenIdle();
    mock.timers.tick(400_000);
    await worker.whenIdle();
    assert.equal(passes.length, 2, 'no flush 400 s after the second message');
    assert.ok(passes.every((pass) => pass.idle !== true));
    mock.timers.tick(200_000);
    await worker.whenIdle();
    assert.equal(passes.length, 3);
    assert.equal(passes.at(-1)?.idle, true);
  });

  it('forgets waiting timers when closed', async () => {
    worker.schedule(job);
    await worker.whenIdle();
    await worker.close();
    mock.timers.tick(600_000);
    await worker.whenIdle();
    assert.equal(passes.length, 1);
    assert.equal(worker.waiting, 0);
  });
});
