import picocolors from 'picocolors';
import { describe, expect, it } from 'vitest';
import { formatTable } from './format-table';

const plain = picocolors.createColors(false);

describe('formatTable', () => {
  it('aligns columns two spaces apart without borders or trailing spaces', () => {
    const text = formatTable(['RUNTIME', 'STATUS'], [['demo', 'idle'], ['a-longer-id', 'paused']], plain);
    expect(text.split('\n')).toEqual(['RUNTIME      STATUS', 'demo         idle', 'a-longer-id  paused']);
  });

  it('measures coloured cells by their visible width', () => {
    const colored = picocolors.createColors(true);
    const text = formatTable(null, [[colored.green('ok'), 'x'], ['long', 'y']], colored);
    const lines = text.split('\n').map((line) => line.replace(/\u001b\[[0-9;]*m/g, ''));
    expect(lines).toEqual(['ok    x', 'long  y']);
  });
});
