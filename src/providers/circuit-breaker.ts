import type { Clock } from '../clock.js';

/**
 * A per-provider circuit breaker: after `failureThreshold` consecutive failed
 * replies the circuit opens and calls are refused at once for `openMs`; then
 * one trial call is let through, and its outcome closes or reopens the circuit.
 * State is per instance: each instance learns on its own that a provider is down.
 */
export interface CircuitSettings {
  failureThreshold: number;
  openMs: number;
}

/** Admission to call the provider; exactly one outcome should be reported. */
export interface CircuitTicket {
  succeeded(): void;
  failed(): void;
  /** Neither outcome (the client went away, or the fault was the agent's): a trial slot is handed back. */
  released(): void;
}

export type CircuitAdmission = { admitted: true; ticket: CircuitTicket } | { admitted: false; retryAfterMs: number };

type State =
  { name: 'closed'; failures: number } | { name: 'open'; until: number } | { name: 'half-open'; trialRunning: boolean };

export class CircuitBreaker {
  #state: State = { name: 'closed', failures: 0 };

  constructor(
    private readonly settings: CircuitSettings,
    private readonly clock: Clock,
    private readonly onChange: (state: 'closed' | 'open' | 'half-open') => void = () => undefined,
  ) {}

  get state(): State['name'] {
    this.#refresh();
    return this.#state.name;
  }

  admit(): CircuitAdmission {
    this.#refresh();
    const state = this.#state;
    if (state.name === 'open') return { admitted: false, retryAfterMs: state.until - this.clock.now() };
    if (state.name === 'half-open') {
      if (state.trialRunning) return { admitted: false, retryAfterMs: 1000 };
      state.trialRunning = true;
      return { admitted: true, ticket: this.#ticket(true) };
    }
    return { admitted: true, ticket: this.#ticket(false) };
  }

  #ticket(trial: boolean): CircuitTicket {
    let settled = false;
    const once = (action: () => void) => () => {
      if (settled) return;
      settled = true;
      action();
    };
    return {
      succeeded: once(() => this.#set({ name: 'closed', failures: 0 })),
      failed: once(() => {
        const state = this.#state;
        if (trial || state.name === 'half-open') return this.#open();
        if (state.name === 'closed') {
          const failures = state.failures + 1;
          if (failures >= this.settings.failureThreshold) this.#open();
          else this.#state = { name: 'closed', failures };
        }
      }),
      released: once(() => {
        if (trial && this.#state.name === 'half-open') this.#state = { name: 'half-open', trialRunning: false };
      }),
    };
  }

  #open(): void {
    this.#set({ name: 'open', until: this.clock.now() + this.settings.openMs });
  }

  #set(next: State): void {
    const changed = next.name !== this.#state.name;
    this.#state = next;
    if (changed) this.onChange(next.name);
  }

  #refresh(): void {
    const state = this.#state;
    if (state.name === 'open' && this.clock.now() >= state.until) this.#set({ name: 'half-open', trialRunning: false });
  }
}
