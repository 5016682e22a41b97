/** Where the API key lives: the tab's sessionStorage by default, localStorage when the user asked to be remembered. */
export interface KeyStorage {
  read(): string | null;
  save(key: string, remember: boolean): void;
  clear(): void;
}

/** The part of the Web Storage API used here (a Map-backed fake in tests). */
export interface StorageArea {
  getItem(name: string): string | null;
  setItem(name: string, value: string): void;
  removeItem(name: string): void;
}

export const API_KEY_STORAGE_NAME = 'runtimectl.console.api-key';

export function createKeyStorage(session: StorageArea, local: StorageArea): KeyStorage {
  return {
    read() {
      return session.getItem(API_KEY_STORAGE_NAME) ?? local.getItem(API_KEY_STORAGE_NAME);
    },
    save(key, remember) {
      // One place only: a key saved for this tab must not linger from an earlier "remember".
      session.removeItem(API_KEY_STORAGE_NAME);
      local.removeItem(API_KEY_STORAGE_NAME);
      (remember ? local : session).setItem(API_KEY_STORAGE_NAME, key);
    },
    clear() {
      session.removeItem(API_KEY_STORAGE_NAME);
      local.removeItem(API_KEY_STORAGE_NAME);
    },
  };
}
