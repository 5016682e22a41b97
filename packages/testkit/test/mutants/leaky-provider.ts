import type { BackendProviderV1, ProviderBackend } from '@runtimectl/core';
import { createMemoryProvider, DEEP_TREE, delegatingProvider } from '../../src/index';

/** The path each backend method is called on (a search's base, an exec's cwd). */
const PATH_OF: Record<string, (argument: never) => string | undefined> = {
  stat: (path: string) => path,
  readBytes: (path: string) => path,
  writeBytes: (path: string) => path,
  createDirAll: (path: string) => path,
  export: (path: string) => path,
  glob: (request: { baseDir?: string }) => request.baseDir,
  grep: (request: { baseDir?: string }) => request.baseDir,
  exec: (request: { cwd?: string }) => request.cwd,
};

/** Whether a real disk would fail `path` for a reason other than not-found: past PATH_MAX once the root is in front, or through a file. */
const failsOnDisk = (path: string | undefined) => path !== undefined && (path.startsWith(DEEP_TREE.path.slice(0, 200)) || path.startsWith('plain-file/'));

/**
 * The memory provider as if its workspace were on a disk: `DEEP_TREE`'s command succeeds, and
 * every call on a path a disk would refuse (too long, through a file) throws `fail(root, path)`
 * — what a provider that does not map its file-system errors lets through.
 */
export function leakyProvider(fail: (workspaceRoot: string, path: string) => Error): BackendProviderV1 {
  const inner = createMemoryProvider({
    execHandler: (request) => ([DEEP_TREE.buildCommand, DEEP_TREE.removeCommand].includes(request.command) ? { exitCode: 0 } : undefined),
  });
  const leaky = (backend: ProviderBackend): ProviderBackend =>
    new Proxy(backend, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        const pathOf = PATH_OF[String(key)];
        return (argument: never, ...rest: unknown[]) => {
          const path = pathOf?.(argument);
          if (failsOnDisk(path)) return Promise.reject(fail(target.workspaceRoot, path!));
          return Reflect.apply(value, target, [argument, ...rest]) as unknown;
        };
      },
    });
  return delegatingProvider(inner, {
    create: async (request) => leaky(await inner.create(request)),
    attach: async (request) => leaky(await inner.attach(request)),
  });
}
