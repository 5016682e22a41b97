import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The `^` ranges of a package's devDependencies (the versions a generated project depends on):
 * a `workspace:` range becomes the linked package's own version, an exact version gets a caret.
 * Read from the package directory `packageDir` (this package in the workspace).
 */
export function rangesOf(packageDir: string): Record<string, string> {
  const own = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const ranges: Record<string, string> = {};
  for (const [name, range] of Object.entries(own.devDependencies ?? {})) {
    if (range.startsWith('workspace:')) {
      const linked = JSON.parse(readFileSync(join(packageDir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
      ranges[name] = `^${linked.version}`;
    } else {
      ranges[name] = /^\d/.test(range) ? `^${range}` : range;
    }
  }
  return ranges;
}
