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
import { assertNoConsoleErrors, signIn, startDashboardServer, type DashboardServer } from './dashboard-helpers.js';

const notes = [
  'The harbor opens at dawn and closes at dusk.',
  '',
  'Visiting boats moor at the north pontoon; the mooring fee is twelve euros a night.',
].join('\n');

/**
 * The knowledge view as a user meets it: no bases yet, creating one, uploading
 * a text file and watching it become ready, searching it and reading the
 * chunk with its citation; and a base that does not exist.
 */
describe('the knowledge view', { skip: chromiumMissing ?? false }, () => {
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

  it('creates a base, uploads a file that becomes ready, and finds its chunk with a citation', async () => {
    const page = browser.page;
    await signIn(page, server);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge', exact: true }).click();
    await page.getByText('No knowledge bases yet').waitFor();
    await assertAccessible(page, 'knowledge, empty');

    await page.getByLabel('Name').fill('Harbor notes');
    await page.getByLabel('Description (optional)').fill('What visitors ask the harbor master.');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByRole('heading', { name: 'Harbor notes', level: 1 }).waitFor();
    await page.getByText('No documents yet').waitFor();
    await assertAccessible(page, 'knowledge base, no documents');

    await page
      .getByLabel('File')
      .setInputFiles({ name: 'harbor.txt', mimeType: 'text/plain', buffer: Buffer.from(notes) });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: 'Uploaded harbor.txt' }).waitFor();
    const row = page.getByRole('row', { name: /harbor\.txt/ });
    // The list is read again until the document settles: no reload by the user.
    await row.getByText('ready', { exact: true }).waitFor();
    assert.match(await row.innerText(), /ready\s+1\s+/);
    await assertAccessible(page, 'knowledge base with a ready document');

    await page.getByLabel('Query').fill('how much is the mooring fee?');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.locator('.search-hits li').first();
    await hit.waitFor();
    assert.match(await hit.locator('.citation').innerText(), /^harbor\.txt · chunk 1 · score \d\.\d{4}$/);
    assert.match(await hit.locator('blockquote').innerText(), /twelve euros a night/);
    await assertAccessible(page, 'knowledge search results');
    // The documented picture shows the documents, the query and its best chunk together.
    await page.getByRole('heading', { name: 'Documents', level: 2 }).evaluate((heading) => heading.scrollIntoView());
    await screenshot(page, 'knowledge', { documented: true });

    // A file that cannot be read fails with its reason, and can be retried.
    await page
      .getByLabel('File')
      .setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 not a PDF') });
    await page.getByRole('button', { name: 'Upload' }).click();
    const broken = page.getByRole('row', { name: /broken\.pdf/ });
    await broken.getByText('failed', { exact: true }).waitFor();
    assert.ok((await broken.locator('.document-reason').innerText()).trim().length > 0, 'the reason is shown');
    await assertAccessible(page, 'knowledge base with a failed document');
    await broken.getByRole('button', { name: 'Retry broken.pdf' }).click();
    await broken.getByText('failed', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete broken.pdf' }).click();
    await page
      .getByRole('dialog', { name: 'Delete broken.pdf?' })
      .getByRole('button', { name: 'Delete document' })
      .click();
    await broken.waitFor({ state: 'detached' });

    const [base] = (await server.api('GET', '/v1/knowledge-bases')).body.data;
    assert.equal(base.name, 'Harbor notes');
    const documents = (await server.api('GET', `/v1/knowledge-bases/${base.id}/documents`)).body.data;
    assert.deepEqual(
      documents.map((document: any) => [document.title, document.status]),
      [['harbor.txt', 'ready']],
    );

    await page.getByRole('button', { name: 'Delete harbor.txt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete harbor.txt?' });
    await dialog.waitFor();
    await assertAccessible(page, 'delete document dialog');
    await dialog.getByRole('button', { name: 'Delete document' }).click();
    await page.getByText('No documents yet').waitFor();
    assert.deepEqual((await server.api('GET', `/v1/knowledge-bases/${base.id}/documents`)).body.data, []);

    await page.getByRole('link', { name: '← All knowledge bases' }).click();
    await page.getByRole('row', { name: /Harbor notes/ }).waitFor();
    await assertAccessible(page, 'knowledge bases list');
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('says so when a knowledge base does not exist', async () => {
    const page = browser.page;
    await page.goto(`${server.url}/#/knowledge/kb_01HZZZZZZZZZZZZZZZZZZZZZZZ`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /not found|no knowledge base/i);
    await assertAccessible(page, 'knowledge base not found');
  });
});
