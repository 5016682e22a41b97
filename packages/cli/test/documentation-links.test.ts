import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The repository's documents: the root README, docs/, and every package's and app's README. */
function documents(): string[] {
  const readmes = ['packages', 'apps'].flatMap((folder) =>
    readdirSync(join(ROOT, folder)).map((name) => join(ROOT, folder, name, 'README.md')).filter((path) => existsSync(path)),
  );
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(ROOT, 'docs', name));
  return [join(ROOT, 'README.md'), ...docs, ...readmes];
}

/** The relative link targets of a markdown text (`[text](target)`), without their #fragment. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#')).map((target) => target.split('#')[0]!);
}

describe('documentation links', () => {
  it('every relative link of the READMEs and docs/ names a file inside the repository', () => {
    const broken: string[] = [];
    for (const document of documents()) {
      for (const target of relativeLinks(readFileSync(document, 'utf8'))) {
        const resolved = resolve(dirname(document), target);
        const inside = !relative(ROOT, resolved).startsWith('..');
        if (!inside || !existsSync(resolved)) broken.push(`${relative(ROOT, document)} → ${target}${inside ? ' (missing)' : ' (outside the repository)'}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
