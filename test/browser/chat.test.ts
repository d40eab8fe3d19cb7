import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';
import { assertAccessible } from './accessibility.js';
import {
  assertNoConsoleErrors,
  createAgent,
  knowledgeBaseWithDocument,
  signIn,
  type DashboardServer,
  useDashboard,
} from './dashboard-helpers.js';

/**
 * The chat as a person talking to an agent meets it: a reply that pauses for
 * approval shows the call it waits on in place, decided there, and the rest
 * of the reply follows in the same chat; an answer lists the knowledge it was
 * given and links to its run. The builtin model asks for the `calculate` tool
 * with a `/tool` line, and the math plugin's entry marks it for approval.
 */
describe("the dashboard's chat", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  const openChat = async (agent: { id: string; name: string }, userId: string) => {
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/chat`);
    await page.getByRole('heading', { name: `Chat with ${agent.name}` }).waitFor();
    await page.getByLabel('User id').fill(userId);
  };
  const say = async (text: string) => {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  };
  const runHref = (agentId: string, runId: string) => `#/agents/${agentId}/runs/${runId}`;
  /** The reply that went on after the decisions, once it has ended. */
  const resumedTurn = async () => {
    const turn = page.locator('.turn-resumed');
    await turn.locator('.turn-footer').filter({ hasText: /Run / }).waitFor();
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector('.turn-resumed')?.getAttribute('aria-busy') === null,
    );
    return turn;
  };

  it('shows a paused call in place; approving it runs the tool and the reply goes on in the chat and the history', async () => {
    const agent = await createAgent(server, {
      name: 'Cashier',
      plugins: [{ name: 'math', approval: { tools: ['calculate'] } }],
    });
    await openChat(agent, 'kim');
    await say('/tool calculate {"expression":"6*7"}');

    await page.getByRole('group', { name: /calculate waits for your approval/ }).waitFor();
    // Its name says how it was decided once it is: the call is found by its input from here on.
    const waiting = page.getByRole('group', { name: /^calculate/ }).filter({ hasText: '6*7' });
    assert.match(await waiting.getByLabel('Input of calculate').innerText(), /"expression": "6\*7"/);
    assert.match(await waiting.locator('time').innerText(), /^23 h 5\d min left$/);
    const paused = page.locator('.turn-agent').first();
    await paused.locator('.turn-footer').filter({ hasText: 'Paused for approval' }).waitFor();
    const [waitingRun] = (await server.api('GET', `/v1/agents/${agent.id}/runs?status=waiting`)).body.data;
    assert.equal(
      await paused.getByRole('link', { name: /^Run / }).getAttribute('href'),
      runHref(agent.id, waitingRun.id),
      'the paused answer links to its run',
    );
    await assertAccessible(page, 'chat, a pending approval');
    await screenshot(page, 'chat-pending-approval');

    await waiting.getByRole('button', { name: 'Approve' }).click();
    const resumed = await resumedTurn();
    await waiting.locator('.decision', { hasText: 'approved' }).waitFor();
    assert.equal(await waiting.getByRole('button', { name: 'Approve' }).count(), 0, 'a decided call asks no more');
    assert.match(await resumed.locator('.tool-call[data-tool="calculate"]').innerText(), /"result":"42".*approved/s);
    const answer = await resumed.locator('.text').innerText();
    assert.match(answer, /calculate returned/);
    const [approval] = (await server.api('GET', `/v1/agents/${agent.id}/approvals`)).body.data;
    assert.equal(approval.status, 'approved');
    assert.equal(
      await resumed.getByRole('link', { name: /^Run / }).getAttribute('href'),
      runHref(agent.id, approval.resumedRunId),
      'the rest of the reply links to the run the decision started',
    );
    // The resumed answer sits right after the paused one, in the same chat.
    assert.deepEqual(
      await page.locator('.transcript > li').evaluateAll((turns) => turns.map((turn) => turn.className)),
      ['turn turn-user', 'turn turn-agent', 'turn turn-agent turn-resumed'],
    );
    await assertAccessible(page, 'chat, a decided approval and the resumed reply');

    // After a reload the conversation's history holds the message and both parts of its reply.
    await page.reload();
    await page.getByRole('link', { name: 'History', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '4 turns shown' }).waitFor();
    const history = await page.locator('.history .turn').allInnerTexts();
    assert.equal(history.length, 4);
    assert.match(history[0]!, /calculate returned/);
    assert.match(history[1]!, /Tool calculate \{"expression":"6\*7"\} → \{.*"result":"42"\}/);
    assert.equal((await page.locator('.history .turn .text').first().innerText()).trim(), answer.trim());
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('denies one call with a reason while approving another: the reply goes on once both are decided', async () => {
    const agent = await createAgent(server, {
      name: 'Auditor',
      plugins: [{ name: 'math', approval: { tools: '*', expiresAfterSeconds: 3600 } }],
    });
    await openChat(agent, 'lea');
    await say('/tool calculate {"expression":"1/0"}\n/tool calculate {"expression":"2+3"}');

    const calls = page.getByRole('group', { name: /calculate waits for your approval/ });
    await calls.nth(1).waitFor();
    assert.equal(await calls.count(), 2);
    assert.match(await calls.first().locator('time').innerText(), /^5\d min left$/);
    const division = page.getByRole('group', { name: /calculate/ }).filter({ hasText: '1/0' });
    const sum = page.getByRole('group', { name: /calculate/ }).filter({ hasText: '2+3' });

    await sum.getByRole('button', { name: 'Approve' }).click();
    await sum.locator('.decision', { hasText: 'approved' }).waitFor();
    assert.match(await sum.innerText(), /goes on once the other calls waiting here are decided/);
    assert.equal(await page.locator('.turn-resumed').count(), 0, 'nothing goes on while a call waits');

    await division.getByLabel('Reason (optional, told to the model)').fill('no division by zero');
    await division.getByRole('button', { name: 'Deny' }).click();
    const resumed = await resumedTurn();
    await division.locator('.decision', { hasText: 'denied' }).waitFor();
    assert.match(await division.innerText(), /denied: no division by zero/);
    const tools = await resumed.locator('.tool-call').allInnerTexts();
    assert.equal(tools.length, 2);
    assert.ok(
      tools.some((line) => /1\/0.*denied: no division by zero \(not run\)/s.test(line)),
      tools.join('\n'),
    );
    assert.ok(
      tools.some((line) => /2\+3.*"result":"5"/s.test(line)),
      tools.join('\n'),
    );
    // The model was told the call was denied, with the reason, and says so.
    assert.match(await resumed.locator('.text').innerText(), /no division by zero/);
    const approvals = (await server.api('GET', `/v1/agents/${agent.id}/approvals`)).body.data;
    assert.deepEqual(approvals.map((each: { status: string }) => each.status).sort(), ['approved', 'denied']);
    await assertAccessible(page, 'chat, a denied call');
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('a call decided elsewhere meanwhile says so where it was asked, and its reply still follows', async () => {
    const agent = await createAgent(server, {
      name: 'Teller',
      plugins: [{ name: 'math', approval: { tools: ['calculate'] } }],
    });
    await openChat(agent, 'ines');
    await say('/tool calculate {"expression":"9-2"}');
    await page.getByRole('group', { name: /calculate waits for your approval/ }).waitFor();
    const [pendingApproval] = (await server.api('GET', `/v1/agents/${agent.id}/approvals?status=pending`)).body.data;
    const decided = await server.api('POST', `/v1/agents/${agent.id}/approvals/${pendingApproval.id}`, {
      decision: 'approve',
    });
    assert.equal(decided.status, 200);

    const call = page.getByRole('group', { name: /^calculate/ });
    await call.getByRole('button', { name: 'Approve' }).click();
    assert.equal(await call.getByRole('alert').innerText(), 'Already approved.');
    const resumed = await resumedTurn();
    assert.match(await resumed.locator('.text').innerText(), /calculate returned/);
    assert.equal(
      await resumed.getByRole('link', { name: /^Run / }).getAttribute('href'),
      runHref(agent.id, decided.body.resumedRunId),
    );
    // The link opens the run's page.
    await resumed.getByRole('link', { name: /^Run / }).click();
    const title = page.getByRole('heading', { level: 1, name: new RegExp(`^Run ${decided.body.resumedRunId}`) });
    await title.waitFor();
    assert.match(await title.innerText(), /completed/);
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it("lists an answer's citations with a link to the knowledge base, and links the answer to its run", async () => {
    const base = await knowledgeBaseWithDocument(server, 'Harbor notes', {
      title: 'Fuel dock',
      content: 'The fuel dock sells diesel only and closes at six.',
    });
    const agent = await createAgent(server, { name: 'Harbor master', knowledgeBases: [base.id] });
    await openChat(agent, 'sam');
    await say('When does the fuel dock close?');

    const sources = page.getByRole('region', { name: 'Sources' });
    await sources.waitFor();
    const citation = sources.getByRole('listitem');
    assert.equal(await citation.count(), 1);
    assert.match(
      await citation.innerText(),
      /^Fuel dock · match \d\.\d\d · in Harbor notes\s*“?The fuel dock sells diesel only and closes at six\.”?$/,
    );
    assert.match(await page.locator('.turn-agent .text').innerText(), /closes at six/);
    const [run] = (await server.api('GET', `/v1/agents/${agent.id}/runs`)).body.data;
    assert.equal(
      await page.locator('.turn-agent').getByRole('link', { name: /^Run / }).getAttribute('href'),
      runHref(agent.id, run.id),
    );
    await assertAccessible(page, 'chat, an answer with its sources');

    await citation.getByRole('link', { name: 'Harbor notes' }).click();
    await page.getByRole('heading', { name: 'Harbor notes', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).hash, `#/knowledge/${base.id}`);
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
