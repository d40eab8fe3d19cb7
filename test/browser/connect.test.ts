import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/** An agent's Connect tab: its MCP tool name as MCP clients see it, and its A2A card. */
describe("the dashboard's Connect tab", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  it("shows the agent's MCP tool name, its A2A card, and says when it is not offered as a tool", async () => {
    // Two agents of one name: the newer one's tool name carries the end of its id, and the tab shows that one.
    await createAgent(server, { name: 'Research Desk', mcp: { exposed: true } });
    const newer = await createAgent(server, { name: 'Research Desk', bio: 'Finds papers.', mcp: { exposed: true } });
    const hidden = await createAgent(server, { name: 'Hidden' });
    await signIn(page, server);

    await page.goto(`${server.url}/#/agents/${newer.id}/connect`);
    const toolName = page.locator('code.tool-name');
    await toolName.waitFor();
    assert.equal(await toolName.innerText(), `ask_research_desk_${newer.id.slice(-8).toLowerCase()}`);
    const card = page.locator('dl.agent-card');
    await card.waitFor();
    assert.match(await card.innerText(), /Research Desk/);
    assert.match(await card.innerText(), /Conversation/);
    assert.match(await page.getByLabel('Client configuration').inputValue(), new RegExp(`${server.url}/v1/mcp`));
    await assertAccessible(page, 'agent Connect');
    await screenshot(page, 'agent-connect', { documented: true });

    await page.goto(`${server.url}/#/agents/${hidden.id}/connect`);
    await page.getByText('Not offered as a tool of its own').waitFor();
    assert.equal(await page.locator('code.tool-name').count(), 0);
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
