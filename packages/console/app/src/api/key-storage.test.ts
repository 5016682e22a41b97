import { describe, expect, it } from 'vitest';
import { API_KEY_STORAGE_NAME, createKeyStorage, type StorageArea } from './key-storage';

function memoryStorage(): StorageArea & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (name) => values.get(name) ?? null,
    setItem: (name, value) => void values.set(name, value),
    removeItem: (name) => void values.delete(name),
  };
}

describe('createKeyStorage', () => {
  it('keeps the key in session storage unless remembered', () => {
    const session = memoryStorage();
    const local = memoryStorage();
    const storage = createKeyStorage(session, local);
    storage.save('rtk_one', false);
    expect(session.values.get(API_KEY_STORAGE_NAME)).toBe('rtk_one');
    expect(local.values.size).toBe(0);
    expect(storage.read()).toBe('rtk_one');
  });

  it('keeps a remembered key in local storage only', () => {
    const session = memoryStorage();
    const local = memoryStorage();
    const storage = createKeyStorage(session, local);
    storage.save('rtk_old', false);
    storage.save('rtk_two', true);
    expect(local.values.get(API_KEY_STORAGE_NAME)).toBe('rtk_two');
    expect(session.values.size).toBe(0);
    expect(storage.read()).toBe('rtk_two');
  });

  it('clears both places on sign-out', () => {
    const session = memoryStorage();
    const local = memoryStorage();
    session.setItem(API_KEY_STORAGE_NAME, 'a');
    local.setItem(API_KEY_STORAGE_NAME, 'b');
    const storage = createKeyStorage(session, local);
    storage.clear();
    expect(storage.read()).toBeNull();
  });
});
