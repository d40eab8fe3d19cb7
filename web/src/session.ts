/**
 * The API key lives in session storage only: gone when the tab closes, never
 * in a URL, a cookie or local storage.
 */
const storageName = 'agentd.apiKey';

export function readKey(): string | null {
  try {
    return sessionStorage.getItem(storageName);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(storageName, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(storageName);
}
