import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type AgentPage } from './api.js';
import { hrefOf } from './route.js';

const statuses = ['', 'active', 'inactive', 'error'] as const;
const sortFields = [
  ['createdAt', 'Created'],
  ['name', 'Name'],
  ['status', 'Status'],
] as const;
const pageSizes = [5, 10, 20, 50, 100];

interface ListState {
  status: string;
  sortBy: string;
  order: 'asc' | 'desc';
  limit: number;
  page: number;
}

/** The list of the account's agents, kept for the tab so coming back to it keeps the filter, sort and page. */
let remembered: ListState = { status: '', sortBy: 'createdAt', order: 'desc', limit: 20, page: 1 };

export function AgentsList() {
  const [state, setState] = useState<ListState>(remembered);
  const [result, setResult] = useState<AgentPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    remembered = state;
    const controller = new AbortController();
    setLoading(true);
    api
      .listAgents(
        { status: state.status, sortBy: state.sortBy, order: state.order, limit: state.limit, page: state.page },
        controller.signal,
      )
      .then((page) => {
        setResult(page);
        setError(null);
      })
      .catch((caught) => {
        if (controller.signal.aborted) return;
        setError(caught instanceof ApiError ? caught.message : 'The agents could not be loaded.');
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [state]);

  // The bench times the list from navigation start to its first rows on screen (bench/dashboard.ts).
  useEffect(() => {
    if (result && performance.getEntriesByName('agents-list-ready').length === 0) {
      performance.mark('agents-list-ready');
    }
  }, [result]);

  const change = (update: Partial<ListState>) => setState({ ...state, page: 1, ...update });
  const pagination = result?.pagination;

  return (
    <section aria-labelledby="agents-title">
      <div class="section-head">
        <h1 id="agents-title" tabIndex={-1}>
          Agents
        </h1>
        <a class="button" href={hrefOf({ name: 'new' })}>
          New agent
        </a>
      </div>
      <form class="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filter and sort">
        <div class="field">
          <label for="filter-status">Status</label>
          <select
            id="filter-status"
            value={state.status}
            onChange={(event) => change({ status: event.currentTarget.value })}
          >
            {statuses.map((status) => (
              <option value={status}>{status || 'Any'}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="sort-by">Sort by</label>
          <select id="sort-by" value={state.sortBy} onChange={(event) => change({ sortBy: event.currentTarget.value })}>
            {sortFields.map(([value, label]) => (
              <option value={value}>{label}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="sort-order">Order</label>
          <select
            id="sort-order"
            value={state.order}
            onChange={(event) => change({ order: event.currentTarget.value as 'asc' | 'desc' })}
          >
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
        <div class="field">
          <label for="page-size">Per page</label>
          <select
            id="page-size"
            value={String(state.limit)}
            onChange={(event) => change({ limit: Number(event.currentTarget.value) })}
          >
            {pageSizes.map((size) => (
              <option value={String(size)}>{size}</option>
            ))}
          </select>
        </div>
      </form>
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
      <p class="list-status" role="status" aria-live="polite">
        {loading
          ? 'Loading agents…'
          : pagination
            ? `${pagination.total} agent${pagination.total === 1 ? '' : 's'}${
                pagination.total > 0 ? `, page ${pagination.page} of ${Math.max(pagination.totalPages, 1)}` : ''
              }`
            : ''}
      </p>
      {result && result.data.length > 0 && (
        <table class="agents" aria-busy={loading ? 'true' : 'false'}>
          <caption class="visually-hidden">Agents of this account</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Model</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {result.data.map((agent) => (
              <tr key={agent.id}>
                <th scope="row" data-label="Name">
                  <a href={hrefOf({ name: 'agent', agentId: agent.id, tab: 'chat' })}>{agent.name}</a>
                </th>
                <td data-label="Status">
                  <span class={`status status-${agent.status}`}>{agent.status}</span>
                </td>
                <td data-label="Model">
                  {agent.model.provider}/{agent.model.name}
                </td>
                <td data-label="Created">
                  <time dateTime={agent.createdAt}>{new Date(agent.createdAt).toLocaleString()}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && result.data.length === 0 && !loading && <p>No agents match.</p>}
      {pagination && pagination.totalPages > 1 && (
        <nav class="pager" aria-label="Pages">
          <button
            type="button"
            class="secondary"
            disabled={state.page <= 1 || loading}
            onClick={() => setState({ ...state, page: state.page - 1 })}
          >
            Previous page
          </button>
          <button
            type="button"
            class="secondary"
            disabled={!pagination.hasMore || loading}
            onClick={() => setState({ ...state, page: state.page + 1 })}
          >
            Next page
          </button>
        </nav>
      )}
    </section>
  );
}
