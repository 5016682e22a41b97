import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser';

describe('SseParser', () => {
  it('dispatches a message at the blank line with its id and event', () => {
    const parser = new SseParser();
    expect(parser.push('id: 7\nevent: runtime.opened\ndata: {"a":1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '7', event: 'runtime.opened', data: '{"a":1}' }]);
  });

  it('joins lines split across chunks, including a CRLF split in two', () => {
    const parser = new SseParser();
    const messages = [...parser.push('id: 1\r\nda'), ...parser.push('ta: hel'), ...parser.push('lo\r'), ...parser.push('\n\r\n')];
    expect(messages).toEqual([{ id: '1', event: 'message', data: 'hello' }]);
  });

  it('ignores comments such as keepalives and joins multi-line data', () => {
    const parser = new SseParser();
    const messages = parser.push(': keepalive\n\ndata: one\ndata: two\n\n');
    expect(messages).toEqual([{ id: null, event: 'message', data: 'one\ntwo' }]);
  });

  it('keeps the last id for later messages without one', () => {
    const parser = new SseParser();
    const messages = parser.push('id: 3\ndata: a\n\ndata: b\n\n');
    expect(messages.map((message) => message.id)).toEqual(['3', '3']);
  });
});
