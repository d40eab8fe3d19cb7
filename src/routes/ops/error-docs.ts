import type { App } from '../../http/app-instance.js';
import { errorCatalog, errorCodes } from '../../errors.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The page each problem's `type` points at (`/docs/errors#<code>`), generated from the error catalog. */
function renderErrorPage(): string {
  const rows = errorCodes
    .map((code) => {
      const entry = errorCatalog[code];
      return `<tr id="${code}"><td>${entry.status}</td><td><code>${code}</code></td><td>${escapeHtml(entry.title)}</td><td>${inlineCode(entry.when)}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>agentd errors</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.4rem .6rem;text-align:left;vertical-align:top}tr:target{background:#ffd}</style>
</head><body>
<h1>agentd errors</h1>
<p>Every error is <code>application/problem+json</code> (RFC 9457): <code>type</code> links to a row below, <code>code</code> is stable,
<code>detail</code> explains this occurrence, <code>requestId</code> matches the <code>X-Request-Id</code> header, and validation errors list
<code>errors[]</code> with a JSON pointer for each problem. See also the <a href="/docs">API reference</a>.</p>
<table><thead><tr><th>status</th><th>code</th><th>title</th><th>when</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}

export function registerErrorDocs(app: App): void {
  const page = renderErrorPage();
  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  );
}
