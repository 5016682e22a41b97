import { describe, expect, it } from 'vitest';
import { BoundedOutput } from './bounded-output';

describe('BoundedOutput', () => {
  it('keeps everything up to the limit without flagging truncation', () => {
    const output = new BoundedOutput(6);
    output.push(Buffer.from('abc'));
    output.push(Buffer.from('def'));
    expect(Buffer.from(output.bytes()).toString()).toBe('abcdef');
    expect(output.truncated).toBe(false);
  });

  it('cuts a chunk that crosses the limit and flags truncation', () => {
    const output = new BoundedOutput(4);
    output.push(Buffer.from('abc'));
    output.push(Buffer.from('def'));
    expect(Buffer.from(output.bytes()).toString()).toBe('abcd');
    expect(output.truncated).toBe(true);
  });

  it('drops everything after the limit, however much arrives', () => {
    const output = new BoundedOutput(100_000);
    const chunk = Buffer.alloc(65_536, 7);
    for (let index = 0; index < 2_000; index += 1) output.push(chunk);
    expect(output.bytes().byteLength).toBe(100_000);
    expect(output.truncated).toBe(true);
  });

  it('copies bytes, so reusing a chunk buffer afterwards does not change what was kept', () => {
    const output = new BoundedOutput(10);
    const chunk = Buffer.from('hello');
    output.push(chunk);
    chunk.fill(0);
    expect(Buffer.from(output.bytes()).toString()).toBe('hello');
  });

  it('with a zero limit keeps nothing and flags any output', () => {
    const output = new BoundedOutput(0);
    output.push(Buffer.from('x'));
    expect(output.bytes().byteLength).toBe(0);
    expect(output.truncated).toBe(true);
  });
});
