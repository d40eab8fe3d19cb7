import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, type OpenBrowser } from '../helpers/browser.js';
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
 * An agent's Memory, History and Edit tabs as a user reads them: the facts
 * table laid out as a table, the history opening on a conversation the agent
 * knows, and the form editing what the agent draws on (knowledge bases,
 * memory, MCP, spend limits).
 */
describe("an agent's memory, history and form", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  const send = async (agentId: string, body: Record<string, unknown>) => {
    const sent = await server.api('POST', `/v1/agents/${agentId}/messages`, body);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
  };

  it("draws the memory's facts with each header above its column", async () => {
    const agent = await createAgent(server, { name: 'Harbor master' });
    await send(agent.id, { text: 'Hello', userId: 'kim' });
    const seeded = await server.api('PATCH', `/v1/agents/${agent.id}/memory?userId=kim`, {
      facts: [
        { subject: 'name', statement: 'is called Kim' },
        { subject: 'location', statement: 'lives in Porto' },
      ],
    });
    assert.equal(seeded.status, 200, JSON.stringify(seeded.body));

    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/memory`);
    await page.getByRole('row', { name: /location/ }).waitFor();
    const headers = page.locator('table.facts thead th');
    const firstRow = page.locator('table.facts tbody tr').first().locator('th, td');
    assert.equal(await headers.count(), 4);
    assert.equal(await firstRow.count(), 4);
    for (let column = 0; column < 4; column += 1) {
      const header = (await headers.nth(column).boundingBox())!;
      const cell = (await firstRow.nth(column).boundingBox())!;
      assert.ok(Math.abs(header.x - cell.x) <= 1, `column ${column}: header at x ${header.x}, its cell at ${cell.x}`);
      assert.ok(
        header.y + header.height <= cell.y + 1,
        `column ${column}: header ends at y ${header.y + header.height}, its cell starts at ${cell.y}`,
      );
    }
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('opens the history on a conversation the agent knows, and picks another from the list', async () => {
    const agent = await createAgent(server, { name: 'Pier clerk' });
    await send(agent.id, { text: 'hello from kim', userId: 'kim' });
    await send(agent.id, { text: 'hello from the pier office', userId: 'ben', roomId: 'pier-office' });

    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/history`);
    const picker = page.getByLabel('Conversation');
    await picker.waitFor();
    const options = await picker.locator('option').allInnerTexts();
    assert.deepEqual([...options].sort(), [
      'every turn of the agent',
      'room pier-office (2 turns)',
      'user kim (2 turns)',
    ]);
    // Shown at once, without typing anything: the first conversation of the list.
    const first = options[0]!;
    const expected = first.startsWith('user kim') ? 'hello from kim' : 'hello from the pier office';
    await page.locator('.history .turn-user .text').filter({ hasText: expected }).waitFor();
    assert.equal(await page.getByLabel('User id').inputValue(), first.startsWith('user kim') ? 'kim' : '');

    const other = first.startsWith('user kim') ? 'room pier-office (2 turns)' : 'user kim (2 turns)';
    await picker.selectOption({ label: other });
    const otherText = other.startsWith('user kim') ? 'hello from kim' : 'hello from the pier office';
    await page.locator('.history .turn-user .text').filter({ hasText: otherText }).waitFor();
    assert.equal(await page.locator('.history .turn-user').count(), 1);

    await picker.selectOption({ label: 'every turn of the agent' });
    await page.getByRole('status').filter({ hasText: '4 turns shown' }).waitFor();
    await assertAccessible(page, 'history with a conversation picker');
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('attaches a knowledge base and sets memory, MCP and spend limits through the form', async () => {
    const base = await knowledgeBaseWithDocument(server, 'Tide tables', {
      title: 'Harbor tides',
      content: 'High tide at the harbor mouth is at noon today.',
    });
    await server.api('POST', '/v1/knowledge-bases', { name: 'Unrelated notes' });
    const agent = await createAgent(server, { name: 'Tide teller' });

    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/edit`);
    const bases = page.getByRole('group', { name: 'Knowledge bases' });
    await bases.waitFor();
    assert.equal(await bases.getByLabel('Tide tables').isChecked(), false);
    await bases.getByLabel('Tide tables').check();
    await page.getByLabel('Keep a rolling summary of turns that leave the window').uncheck();
    await page.getByLabel('Extract facts every … user turns').fill('4');
    await page.getByLabel('Offer this agent as its own tool on the MCP server').check();
    await page.getByLabel('Tokens per UTC day').fill('50000');
    await assertAccessible(page, 'agent form with knowledge bases, memory, MCP and limits');
    const patched = page.waitForRequest((request) => request.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    // Only what was changed is sent: the defaults the form shows are not made the agent's own values.
    const sent = (await patched).postDataJSON();
    assert.deepEqual(sent.memory, { summary: false, schedule: { everyUserTurns: 4 } });
    assert.deepEqual(sent.limits, { spend: { tokensPerDay: 50000 } });

    const stored = (await server.api('GET', `/v1/agents/${agent.id}`)).body;
    assert.deepEqual(stored.knowledgeBases, [base.id]);
    assert.equal(stored.memory.summary, false);
    assert.equal(stored.memory.facts, true);
    assert.equal(stored.memory.schedule.everyUserTurns, 4);
    assert.equal(stored.mcp.exposed, true);
    assert.equal(stored.limits.spend.tokensPerDay, 50000);
    assert.equal(stored.limits.spend.costPerDay, null);
    // The next answer draws on the base attached in the form.
    const answer = await server.api('POST', `/v1/agents/${agent.id}/messages`, { text: 'When is high tide today?' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(
      answer.body.citations.map((citation: { knowledgeBaseId: string }) => citation.knowledgeBaseId),
      [base.id],
    );
    assert.match(answer.body.text, /noon/);

    // Read back after a reload, as the server has it.
    await page.reload();
    await bases.waitFor();
    assert.equal(await bases.getByLabel('Tide tables').isChecked(), true);
    assert.equal(await bases.getByLabel('Unrelated notes').isChecked(), false);
    assert.equal(await page.getByLabel('Offer this agent as its own tool on the MCP server').isChecked(), true);

    // Detached again: the base is no longer the agent's.
    await bases.getByLabel('Tide tables').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.deepEqual((await server.api('GET', `/v1/agents/${agent.id}`)).body.knowledgeBases, []);

    // The Knowledge page's pointer to the form names a part the form has.
    await page.goto(`${server.url}/#/knowledge`);
    await page.getByText('in its Edit tab, under “Knowledge bases”').waitFor();
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
