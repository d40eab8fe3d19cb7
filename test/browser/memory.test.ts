import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertDashboardBuilt,
  chromiumMissing,
  openBrowser,
  screenshot,
  type OpenBrowser,
} from '../helpers/browser.js';
import { assertBuilt } from '../helpers/server-process.js';
import { assertAccessible } from './accessibility.js';
import {
  assertNoConsoleErrors,
  createAgent,
  signIn,
  startDashboardServer,
  type DashboardServer,
} from './dashboard-helpers.js';

/**
 * An agent's Memory tab: picking a user the agent knows, correcting a fact
 * (and being told when the server refuses the correction), forgetting one
 * fact and then all the agent remembers of the user.
 */
describe("an agent's memory tab", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;

  before(async () => {
    assertBuilt();
    assertDashboardBuilt();
    [server, browser] = await Promise.all([startDashboardServer(), openBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('edits a fact, forgets one, then forgets everything about the user', async () => {
    const page = browser.page;
    const quiet = await createAgent(server, { name: 'Quiet' });
    const agent = await createAgent(server, { name: 'Harbor master' });
    assert.equal(
      (await server.api('POST', `/v1/agents/${agent.id}/messages`, { text: 'Hello', userId: 'kim' })).status,
      200,
    );
    assert.equal(
      (
        await server.api('POST', `/v1/agents/${agent.id}/messages`, {
          text: 'Hello all',
          userId: 'kim',
          roomId: 'pier',
        })
      ).status,
      200,
    );
    const memoryUrl = `/v1/agents/${agent.id}/memory?userId=kim`;
    const seeded = await server.api('PATCH', memoryUrl, {
      summary: 'Kim asked about moorings.',
      facts: [
        { subject: 'name', statement: 'is called Kim' },
        { subject: 'location', statement: 'lives in Porto' },
      ],
    });
    assert.equal(seeded.status, 200, JSON.stringify(seeded.body));

    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${quiet.id}/memory`);
    await page.getByText('This agent has no conversations yet').waitFor();
    await assertAccessible(page, 'memory, no conversations');

    await page.goto(`${server.url}/#/agents/${agent.id}/memory`);
    const picker = page.getByLabel('User or room');
    await picker.waitFor();
    assert.deepEqual(await picker.locator('option').allInnerTexts(), ['user kim (2 turns)', 'room pier (2 turns)']);
    await picker.selectOption({ label: 'user kim (2 turns)' });
    await page.getByRole('heading', { name: 'Memory of user kim' }).waitFor();
    await page.getByText('Kim asked about moorings.').waitFor();
    const location = page.getByRole('row', { name: /location/ });
    assert.match(await location.innerText(), /lives in Porto/);
    await assertAccessible(page, 'memory of a user');
    await screenshot(page, 'memory', { documented: true });

    await page.getByRole('button', { name: 'Edit the fact on location' }).click();
    const statement = page.getByLabel('Statement on location');
    assert.equal(await statement.evaluate((element) => element === (globalThis as any).document.activeElement), true);
    // Blank is refused by the server; the refusal is read at the field.
    await statement.fill('   ');
    await page.getByRole('button', { name: 'Save' }).click();
    await location.getByRole('alert').waitFor();
    assert.equal(await statement.getAttribute('aria-invalid'), 'true');
    await assertAccessible(page, 'memory, a refused edit');
    await statement.fill('lives in Lisbon');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved the fact on location.' }).waitFor();
    assert.match(await location.innerText(), /lives in Lisbon/);
    const edited = (await server.api('GET', memoryUrl)).body;
    assert.deepEqual(edited.facts.map((fact: any) => [fact.subject, fact.statement]).sort(), [
      ['location', 'lives in Lisbon'],
      ['name', 'is called Kim'],
    ]);

    await page.getByRole('button', { name: 'Forget the fact on name' }).click();
    await page.getByRole('status').filter({ hasText: 'Forgot the fact on name.' }).waitFor();
    assert.deepEqual(
      (await server.api('GET', memoryUrl)).body.facts.map((fact: any) => fact.subject),
      ['location'],
    );

    await page.getByRole('button', { name: 'Forget everything about user kim' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget everything about user kim?' });
    await dialog.waitFor();
    await assertAccessible(page, 'forget memory dialog');
    await dialog.getByRole('button', { name: 'Forget', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Forgot the memory of user kim.' }).waitFor();
    await page.getByText('No facts about this user yet.').waitFor();
    const forgotten = (await server.api('GET', memoryUrl)).body;
    assert.equal(forgotten.summary, null);
    assert.deepEqual(forgotten.facts, []);
    // The turns stay unless asked for: the history still has them.
    assert.equal((await server.api('GET', `/v1/agents/${agent.id}/messages?userId=kim`)).body.data.length, 2);
    await assertAccessible(page, 'memory forgotten');
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
