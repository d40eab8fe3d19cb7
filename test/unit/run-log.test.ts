import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunLog, type SequencedEvent } from '../../src/services/runs/run-log.js';

function newLog(): RunLog {
  return new RunLog('run_1', 'acc_1', 'agt_1', Promise.resolve());
}

function delta(text: string) {
  return { event: 'message.delta', data: { text } };
}

function followed(log: RunLog, afterSeq: number): { seqs: (number | null)[]; unfollow: (() => void) | null } {
  const seqs: (number | null)[] = [];
  const unfollow = log.follow(afterSeq, (event) => seqs.push(event === null ? null : event.seq));
  return { seqs, unfollow };
}

describe('a run log', () => {
  it('numbers events from 1 and hands each batch only the events not yet taken', () => {
    const log = newLog();
    assert.equal(log.record(delta('a')), 1);
    assert.equal(log.record(delta('b')), 2);
    const first = log.takeUnwritten();
    assert.deepEqual(
      first.events.map((event: SequencedEvent) => event.seq),
      [1, 2],
    );
    assert.equal(log.hasUnwritten, false);
    log.record(delta('c'));
    assert.deepEqual(
      log.takeUnwritten().events.map((event) => event.seq),
      [3],
    );
  });

  it('takes a batch that could not be written again with the next one', () => {
    const log = newLog();
    log.record(delta('a'));
    const failed = log.takeUnwritten();
    log.record(delta('b'));
    log.untake(failed.from);
    assert.deepEqual(
      log.takeUnwritten().events.map((event) => event.seq),
      [1, 2],
    );
  });

  it('lets written events leave memory, so a long run holds only its unwritten tail', () => {
    const log = newLog();
    for (let index = 0; index < 1000; index += 1) log.record(delta(String(index)));
    const batch = log.takeUnwritten();
    log.written(batch.events.at(-1)!.seq);
    log.record(delta('last'));
    assert.equal(log.lastSeq, 1001);
    assert.equal(log.lastEvent?.seq, 1001);
    // A reader that resumes within what is held gets it from memory…
    const recent = followed(log, 1000);
    assert.deepEqual(recent.seqs, [1001]);
    assert.notEqual(recent.unfollow, null);
    // …one that resumes earlier is told to read the database first.
    assert.equal(followed(log, 10).unfollow, null);
  });

  it('never drops events handed to a batch that is still being written', () => {
    const log = newLog();
    log.record(delta('a'));
    log.takeUnwritten();
    log.record(delta('b'));
    // A later batch's end cannot drop what was not handed out.
    log.written(2);
    assert.deepEqual(followed(log, 1).seqs, [2]);
  });

  it('tells live readers of each new event and of the end', () => {
    const log = newLog();
    const reader = followed(log, 0);
    log.record(delta('a'));
    log.end();
    assert.deepEqual(reader.seqs, [1, null]);
    assert.deepEqual(followed(log, 0).seqs, [1, null]);
  });

  it('hands a reader ahead of a run taken over (it saw events never stored) only the events after its own', () => {
    // The stopped instance stored events 1–50 and sent 51–53 to the reader; this instance goes on after 50.
    const log = new RunLog('run_1', 'acc_1', 'agt_1', Promise.resolve(), () => {}, 50);
    const reader = followed(log, 53);
    for (const text of ['resumed', 'a', 'b', 'c', 'd']) log.record(delta(text));
    log.end();
    assert.deepEqual(reader.seqs, [54, 55, null]);
    assert.deepEqual(followed(log, 53).seqs, [54, 55, null], 'joining later, too');
  });
});
