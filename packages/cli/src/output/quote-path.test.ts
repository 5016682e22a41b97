import { describe, expect, it } from 'vitest';
import { nameStatusLines } from './diff-output';
import { quotePath } from './quote-path';

describe('paths a runtime named, printed for a person', () => {
  it('a name with a terminal escape or a newline is printed C-quoted as git does, so it can neither drive the terminal nor forge a line', () => {
    expect(quotePath('\u001b]0;owned\u0007x')).toBe('"\\033]0;owned\\ax"');
    expect(quotePath('a\nM\tforged.txt')).toBe('"a\\nM\\tforged.txt"');
    expect(quotePath('say "hi"\\')).toBe('"say \\"hi\\"\\\\"');
    expect(quotePath('\u007f\u009b')).toBe('"\\177\\302\\233"');
    expect(nameStatusLines([{ change: 'added', path: 'x\u001b[2J' } as never])).toEqual(['A\t"x\\033[2J"']);
  });

  it('an ordinary name, spaces and non-ASCII letters included, is printed as it is', () => {
    for (const name of ['src/main.ts', 'notes and plans.md', 'café/naïve.txt', '日本.txt']) expect(quotePath(name)).toBe(name);
  });
});
