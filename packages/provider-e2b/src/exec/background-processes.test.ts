import { describe, expect, it } from 'vitest';
import { parseBackgroundProcesses } from './background-processes';

describe('the background-process count', () => {
  it('reads the number the script printed', () => {
    expect(parseBackgroundProcesses('0\n')).toBe(0);
    expect(parseBackgroundProcesses('  12\n')).toBe(12);
  });

  it('takes anything else (a sandbox without grep or wc) as "cannot tell"', () => {
    for (const output of ['', 'sh: grep: not found', '-1', '1.5', '3 4']) expect(parseBackgroundProcesses(output)).toBeNull();
  });
});
