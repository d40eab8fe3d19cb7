import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { artifactsDirectory, chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { waitFor } from '../helpers/wait.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

if (chromiumMissing) console.log(`note: ${chromiumMissing}`);

/**
 * The dashboard end to end: a real agentd process on SQLite per test, Debian's
 * Chromium per test with an empty profile, the user's clicks and keys.
 * Screenshots go to the artifacts directory (see test/helpers/browser.ts).
 * Functions given to page.evaluate run in the page (typed here without the
 * DOM, hence `globalThis as any`); a string would be evaluated by the page
 * itself, which its Content-Security-Policy forbids.
 */
describe('the web dashboard', { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  it('signs in with a key kept in session storage only, refuses a wrong one, and signs out', async () => {
    await page.goto(`${server.url}/`);
    await page.getByLabel('API key').fill(`agd_${'x'.repeat(40)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That API key was not accepted.' }).waitFor();
    assert.equal(await page.getByLabel('API key').getAttribute('aria-invalid'), 'true');

    await page.getByLabel('API key').fill(server.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    assert.ok(!page.url().includes(server.key), 'the key is never in the URL');
    assert.equal(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('agentd.apiKey')), server.key);
    assert.equal(await page.evaluate(() => (globalThis as any).localStorage.length), 0);
    assert.deepEqual(await page.context().cookies(), []);

    // A reload keeps the session of this tab.
    await page.reload();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await screenshot(page, 'signed-in');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to agentd' }).waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('agentd.apiKey')), null);
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('signs in with the keyboard alone', async () => {
    await page.goto(`${server.url}/`);
    await page.getByLabel('API key').waitFor();
    // From the page's start, Tab reaches the key field, typing fills it and Enter submits.
    for (let presses = 0; presses < 5; presses += 1) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => (globalThis as any).document.activeElement?.id === 'api-key')) break;
    }
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.id), 'api-key');
    await page.keyboard.type(server.key);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    // Focus moves to the new view's heading, where a screen reader continues.
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.textContent?.trim() === 'Agents');
    // On from there with Tab: the next stop is the view's own action, and Enter follows it.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent), 'New agent');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New agent', level: 1 }).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.textContent?.trim() === 'New agent');
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('lists agents with a status filter, sorting and pages', async () => {
    const agents: Array<[string, string]> = [
      ['delta', 'active'],
      ['Alpha', 'inactive'],
      ['echo', 'active'],
      ['Charlie', 'inactive'],
      ['bravo', 'active'],
      ['foxtrot', 'active'],
      ['Golf', 'inactive'],
    ];
    for (const [name, status] of agents) await createAgent(server, { name, status });
    await signIn(page, server);
    const names = () => page.locator('table.agents tbody th').allInnerTexts();
    const status = page.locator('.list-status');
    await status.filter({ hasText: '7 agents, page 1 of 1' }).waitFor();
    // Newest first by default.
    assert.deepEqual(await names(), agents.map(([name]) => name).reverse());

    await page.getByLabel('Sort by').selectOption('name');
    await page.getByLabel('Order').selectOption('asc');
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector('table.agents tbody th')?.textContent === 'Alpha',
    );
    assert.deepEqual(await names(), ['Alpha', 'bravo', 'Charlie', 'delta', 'echo', 'foxtrot', 'Golf']);

    await page.getByLabel('Status').selectOption('inactive');
    await status.filter({ hasText: '3 agents, page 1 of 1' }).waitFor();
    assert.deepEqual(await names(), ['Alpha', 'Charlie', 'Golf']);

    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Per page').selectOption('5');
    await status.filter({ hasText: '7 agents, page 1 of 2' }).waitFor();
    assert.deepEqual(await names(), ['Alpha', 'bravo', 'Charlie', 'delta', 'echo']);
    assert.equal(await page.getByRole('button', { name: 'Previous page' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Next page' }).click();
    await status.filter({ hasText: '7 agents, page 2 of 2' }).waitFor();
    assert.deepEqual(await names(), ['foxtrot', 'Golf']);
    assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);
    await screenshot(page, 'agents-list-page-2', { documented: true });
    await page.getByRole('button', { name: 'Previous page' }).click();
    await status.filter({ hasText: 'page 1 of 2' }).waitFor();

    // Sorting by status puts the agents of one status together.
    await page.getByLabel('Sort by').selectOption('status');
    await page.getByLabel('Per page').selectOption('10');
    await status.filter({ hasText: '7 agents, page 1 of 1' }).waitFor();
    const statuses = await page.locator('table.agents tbody td[data-label="Status"]').allInnerTexts();
    assert.deepEqual(statuses, [...statuses].sort());
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('creates an agent, showing a validation problem at its field', async () => {
    await signIn(page, server);
    await page.getByRole('link', { name: 'New agent' }).first().click();
    await page.getByRole('heading', { name: 'New agent', level: 1 }).waitFor();
    // A name of spaces and a temperature over 2: both refused by the server, each shown at its own field.
    await page.getByLabel('Name', { exact: true }).fill('   ');
    await page.getByLabel('Bio').fill('Checks sums.\nNever guesses.');
    await page.getByLabel('Provider', { exact: true }).fill('builtin');
    await page.getByLabel('Model name').fill('echo');
    await page.getByLabel('Temperature').fill('3');
    await page.getByRole('button', { name: 'Create agent' }).click();

    const nameField = page.getByLabel('Name', { exact: true });
    await page.locator('#field-name-error').waitFor();
    assert.equal(await nameField.getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('#field-name-error').innerText(), /must not be blank/);
    assert.equal(await page.getByLabel('Temperature').getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('#field-model-temperature-error').innerText(), /must be at most 2/);
    // The error is announced with the field: the input is described by it.
    assert.match((await nameField.getAttribute('aria-describedby')) ?? '', /field-name-error/);
    // Focus goes to the first field in error.
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.id), 'field-name');
    await screenshot(page, 'create-validation-error');
    assert.equal((await server.api('GET', '/v1/agents')).body.pagination.total, 0, 'nothing was created');

    await nameField.fill('Abacus');
    await page.getByLabel('Temperature').fill('0.5');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: /Abacus/, level: 1 }).waitFor();
    const list = await server.api('GET', '/v1/agents');
    assert.equal(list.body.pagination.total, 1);
    const [agent] = list.body.data;
    assert.deepEqual(agent.bio, ['Checks sums.', 'Never guesses.']);
    assert.deepEqual(agent.model, { provider: 'builtin', name: 'echo', temperature: 0.5 });
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('edits an agent, keeping its secrets write-only', async () => {
    const secret = 'dashboard-secret-7d3e9a1c';
    const agent = await createAgent(server, {
      name: 'Courier',
      bio: 'Delivers.',
      platforms: [
        { type: 'telegram', enabled: false, settings: { pollTimeoutSeconds: 20 }, secrets: { botToken: secret } },
      ],
      metadata: { team: 'ops', region: 'eu' },
    });
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/edit`);
    await page.getByRole('heading', { name: 'Edit Courier' }).waitFor();
    // The stored secret shows only masked; its value is nowhere in the page.
    const botToken = page.getByRole('group', { name: 'Platform 1 (telegram)' }).getByLabel('Bot token');
    assert.equal(await botToken.getAttribute('placeholder'), '••••9a1c');
    assert.equal(await botToken.getAttribute('type'), 'password');
    assert.equal(await botToken.inputValue(), '');
    assert.ok(!(await page.content()).includes(secret));
    // Settings come through the connector's schema: the stored value, not the default.
    assert.equal(await page.getByLabel('Poll timeout seconds').inputValue(), '20');

    await page.getByLabel('Name', { exact: true }).fill('Courier Two');
    await page.getByLabel('Bio').fill('Delivers faster.');
    assert.equal(await page.getByLabel('Value of region').inputValue(), 'eu');
    await page.getByRole('button', { name: 'Remove metadata entry 2' }).click();
    await page.getByLabel('Deletion protection').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('heading', { name: /Courier Two/, level: 1 }).waitFor();
    await screenshot(page, 'edit-saved');

    const stored = (await server.api('GET', `/v1/agents/${agent.id}`)).body;
    assert.equal(stored.name, 'Courier Two');
    assert.deepEqual(stored.bio, ['Delivers faster.']);
    assert.deepEqual(stored.metadata, { team: 'ops' });
    assert.equal(stored.deletionProtection, true);
    // The secret was kept (sent back masked), not replaced by its mask.
    assert.deepEqual(stored.platforms[0].secrets, { botToken: '••••9a1c' });
    assert.deepEqual(stored.platforms[0].settings, { pollTimeoutSeconds: 20 });

    // A new value replaces it.
    await botToken.fill('dashboard-secret-0000b2c4');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('input[placeholder="••••b2c4"]').waitFor();
    assert.equal(await botToken.inputValue(), '');
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('deletes an agent after confirmation, and shows the refusal of a protected one', async () => {
    const guarded = await createAgent(server, { name: 'Guarded', deletionProtection: true });
    const doomed = await createAgent(server, { name: 'Doomed' });
    await signIn(page, server);

    await page.goto(`${server.url}/#/agents/${guarded.id}/chat`);
    await page.getByRole('heading', { name: /Guarded/, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Guarded?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await dialog.getByRole('alert').waitFor();
    assert.match(await dialog.getByRole('alert').innerText(), /protect/i);
    await screenshot(page, 'delete-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await server.api('GET', `/v1/agents/${guarded.id}`)).status, 200);

    await page.goto(`${server.url}/#/agents/${doomed.id}/chat`);
    await page.getByRole('heading', { name: /Doomed/, level: 1 }).waitFor();
    // Cancelling deletes nothing; Escape closes the dialog as well.
    await page.getByRole('button', { name: 'Delete agent' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    assert.equal((await server.api('GET', `/v1/agents/${doomed.id}`)).status, 200);

    await page.getByRole('button', { name: 'Delete agent' }).click();
    await page.getByRole('dialog', { name: 'Delete Doomed?' }).getByRole('button', { name: 'Delete for good' }).click();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    assert.equal((await server.api('GET', `/v1/agents/${doomed.id}`)).status, 404);
    await page.locator('.list-status').filter({ hasText: '1 agent,' }).waitFor();
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('streams a chat reply with its tool call', async () => {
    const agent = await createAgent(server, { name: 'Calculator', plugins: [{ name: 'math' }] });
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/chat`);
    await page.getByRole('heading', { name: 'Chat with Calculator' }).waitFor();
    await page.getByLabel('User id').fill('u-chat');
    await page.getByLabel('Message').fill('/tool calculate {"expression":"2+2"}');
    await page.getByLabel('Message').press('Enter');

    const tool = page.locator('.turn-agent .tool-call[data-tool="calculate"]');
    await tool.locator('.tool-output').waitFor();
    assert.match(await tool.innerText(), /Tool calculate \{"expression":"2\+2"\}/);
    assert.match(await tool.locator('.tool-output').innerText(), /"result":"4"/);
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector('.turn-agent')?.getAttribute('aria-busy') === null,
    );
    const reply = await page.locator('.turn-agent .text').innerText();
    assert.match(reply, /calculate returned/);
    // The streamed text is the stored reply, word for word.
    const history = await server.api('GET', `/v1/agents/${agent.id}/messages?userId=u-chat`);
    const stored = history.body.data.find((turn: any) => turn.role === 'agent');
    assert.equal(reply.trim(), stored.text.trim());
    // The transcript is a live region, so the streamed words are announced.
    assert.equal(await page.getByRole('log', { name: 'Conversation' }).getAttribute('aria-live'), 'polite');
    await screenshot(page, 'chat-tool-call', { documented: true });
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('shows the history of a user and of a room', async () => {
    const agent = await createAgent(server, { name: 'Historian' });
    for (const body of [
      { text: 'first from ana', userId: 'ana' },
      { text: 'second from ana', userId: 'ana' },
      { text: 'hello room', userId: 'ben', roomId: 'lobby' },
    ]) {
      assert.equal((await server.api('POST', `/v1/agents/${agent.id}/messages`, body)).status, 200);
    }
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/history`);
    await page.getByRole('heading', { name: 'History' }).waitFor();
    // The history first opens on a conversation picked from those the agent knows, filling user and room.
    await page.getByLabel('Conversation').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /turns? shown/ })
      .waitFor();
    await page.getByLabel('User id').fill('ana');
    await page.getByLabel('Room id').fill('');
    await page.getByRole('button', { name: 'Show history' }).click();
    await page.getByRole('status').filter({ hasText: '4 turns shown' }).waitFor();
    const texts = await page.locator('.history .turn .text').allInnerTexts();
    // Newest first: the answer to the second message, the second message, then the first exchange.
    assert.equal(texts[1], 'second from ana');
    assert.equal(texts[3], 'first from ana');

    await page.getByLabel('User id').fill('');
    await page.getByLabel('Room id').fill('lobby');
    await page.getByRole('button', { name: 'Show history' }).click();
    await page.getByRole('status').filter({ hasText: '2 turns shown' }).waitFor();
    assert.equal((await page.locator('.history .turn .text').allInnerTexts())[1], 'hello room');
    assert.match(await page.locator('.history .turn-user .who').innerText(), /ben in lobby/);
    await screenshot(page, 'history-room');
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('draws the metrics as charts, and says when there are none yet', async () => {
    const agent = await createAgent(server, { name: 'Measured' });
    await signIn(page, server);
    const metricsRoute = `**/v1/agents/${agent.id}/metrics*`;
    // The metrics endpoint answered as a server without metrics does: a not_found problem.
    await page.route(metricsRoute, (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: '/docs/errors#not_found',
          title: 'Not found',
          status: 404,
          code: 'not_found',
          detail: 'Not found.',
          requestId: 'req_1',
        }),
      }),
    );
    await page.goto(`${server.url}/#/agents/${agent.id}/metrics`);
    await page.getByText('No metrics yet.').waitFor();

    // The agreed response shape, with an empty bucket (null percentiles) between two busy ones.
    const bucket = (start: string, messages: number) => ({
      start,
      messages,
      streamedMessages: messages ? 4 : 0,
      failedMessages: messages ? 1 : 0,
      failuresByType: messages ? { provider_error: 1 } : {},
      toolCalls: messages ? 3 : 0,
      inputTokens: messages * 100,
      outputTokens: messages * 30,
      latencyMs: messages ? { p50: 820, p95: 1900, p99: 2100 } : { p50: null, p95: null, p99: null },
      timeToFirstTokenMs: messages ? { p50: 300, p95: 700 } : { p50: null, p95: null },
      rateLimited: 0,
      concurrencyRejected: 0,
    });
    const buckets = [
      bucket('2026-11-22T14:00:00.000Z', 12),
      bucket('2026-11-22T15:00:00.000Z', 0),
      bucket('2026-11-22T16:00:00.000Z', 5),
    ];
    const { start: _start, ...totals } = { ...bucket('', 17), failuresByType: { provider_error: 2 } };
    await page.unroute(metricsRoute);
    await page.route(metricsRoute, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          agentId: agent.id,
          from: '2026-11-22T14:00:00.000Z',
          to: '2026-11-22T17:00:00.000Z',
          interval: 'hour',
          buckets,
          totals,
        }),
      }),
    );
    await page.getByLabel('Interval').selectOption('hour');
    await page.locator('.chart canvas').nth(3).waitFor();
    assert.equal(await page.locator('.chart canvas').count(), 4);
    assert.deepEqual(await page.locator('.chart figcaption').allInnerTexts(), [
      'Messages',
      'Tokens',
      'Latency',
      'Refused',
    ]);
    assert.match(await page.locator('.totals').innerText(), /Messages\s+17/);
    assert.match(await page.locator('.totals').innerText(), /provider_error: 2/);
    await screenshot(page, 'metrics-charts', { documented: true });
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('first load: under 200 KiB compressed, the sign-in form usable within its budget', async () => {
    // The 1 s budget is measured alone (bench/README.md, "Dashboard": AGENTD_FIRST_LOAD_BUDGET_MS=1000). In the
    // whole suite other test files share the cores, so only a regression far past it fails here.
    const readyBudgetMs = Number(process.env.AGENTD_FIRST_LOAD_BUDGET_MS) || 5_000;
    // Every response of the load, with the bytes that crossed the network (headers and compressed body).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const requests = new Map<string, { url: string; encoding: string; bytes: number | null }>();
    cdp.on('Network.responseReceived', (event) => {
      const headers = Object.fromEntries(
        Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
      );
      requests.set(event.requestId, {
        url: event.response.url,
        encoding: headers['content-encoding'] ?? '',
        bytes: null,
      });
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = requests.get(event.requestId);
      if (request) request.bytes = event.encodedDataLength;
    });

    const started = Date.now();
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    await page.getByLabel('API key').fill('typing works');
    const untilUsableMs = Date.now() - started;
    const readyMs: number = await page.evaluate(
      () => (globalThis as any).performance.getEntriesByName('dashboard-ready')[0]?.startTime ?? Infinity,
    );
    const performanceBytes: number = await page.evaluate(() => {
      const performance = (globalThis as any).performance;
      return [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].reduce(
        (sum: number, entry: any) => sum + entry.transferSize,
        0,
      );
    });
    assert.notEqual(
      await waitFor(() => [...requests.values()].every((request) => request.bytes !== null), 5_000),
      null,
      'every response of the first load finished',
    );
    const transferred = [...requests.values()].reduce((sum, request) => sum + (request.bytes ?? 0), 0);
    const result = {
      transferredBytes: transferred,
      transferredBytesByPerformanceApi: performanceBytes,
      readyMs: Math.round(readyMs),
      untilTypingMs: untilUsableMs,
      responses: [...requests.values()].map(({ url, encoding, bytes }) => ({
        path: new URL(url).pathname,
        encoding,
        bytes,
      })),
    };
    fs.mkdirSync(artifactsDirectory, { recursive: true });
    fs.writeFileSync(path.join(artifactsDirectory, 'first-load.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `first load: ${(transferred / 1024).toFixed(1)} KiB transferred in ${requests.size} responses, ` +
        `sign-in form ready ${result.readyMs} ms after navigation start, typed into after ${untilUsableMs} ms`,
    );

    assert.ok(transferred < 200 * 1024, `${transferred} bytes transferred`);
    assert.ok(readyMs < readyBudgetMs, `the sign-in form was ready after ${readyMs} ms (budget ${readyBudgetMs} ms)`);
    // Scripts and styles came pre-compressed; the views behind sign-in and the charts' code come later.
    for (const response of result.responses.filter(({ path }) => /\.(?:js|css)$/.test(path))) {
      assert.equal(response.encoding, 'br', `${response.path} was sent with brotli`);
    }
    assert.ok(!result.responses.some(({ path }) => /uPlot/i.test(path)), 'uPlot is not part of the first load');
    assert.ok(
      !result.responses.some(({ path }) => /signed-in/.test(path)),
      'the views behind sign-in are not part of the first load',
    );
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('is usable on a phone-sized screen (390×844)', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const agent = await createAgent(server, {
      name: 'Pocket agent with a rather long name to wrap',
      plugins: [{ name: 'math' }],
    });
    await createAgent(server, { name: 'Second', status: 'inactive' });
    const noSidewaysScroll = async (where: string) => {
      const width: number = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${where}: the page is ${width} px wide`);
    };

    await page.goto(`${server.url}/`);
    await noSidewaysScroll('sign-in');
    await signIn(page, server);
    await page.locator('.list-status').filter({ hasText: '2 agents' }).waitFor();
    await noSidewaysScroll('agents list');
    // The table's header row is hidden on a phone: each agent reads as a card of labelled values.
    assert.equal(await page.locator('table.agents thead').isVisible(), false);
    await screenshot(page, 'phone-agents');

    await page.getByRole('link', { name: agent.name }).click();
    await page.getByRole('heading', { name: `Chat with ${agent.name}` }).waitFor();
    await page.getByLabel('Message').fill('/tool calculate {"expression":"6*7"}');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.tool-output').filter({ hasText: '42' }).waitFor();
    await noSidewaysScroll('chat');
    await screenshot(page, 'phone-chat');

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: /^Edit / }).waitFor();
    await noSidewaysScroll('edit form');
    await screenshot(page, 'phone-edit');
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
