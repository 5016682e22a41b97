/** One Server-Sent Events message: what an EventSource would dispatch. */
export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

/**
 * An incremental parser of the `text/event-stream` format (the WHATWG rules: lines end with
 * CRLF, LF or CR; `:` starts a comment; a blank line dispatches). The console reads the stream
 * with fetch, because EventSource cannot send an Authorization header.
 */
export class SseParser {
  #buffer = '';
  #pendingCarriageReturn = false;
  #id: string | null = null;
  #event = '';
  #data: string[] = [];

  /** Feeds decoded text; returns the messages completed by it. */
  push(text: string): SseMessage[] {
    const messages: SseMessage[] = [];
    let start = 0;
    let index = 0;
    // A CR at the end of the previous chunk may be the first half of a CRLF.
    if (this.#pendingCarriageReturn && text.startsWith('\n')) {
      start = 1;
      index = 1;
    }
    this.#pendingCarriageReturn = false;
    for (; index < text.length; index += 1) {
      const character = text[index];
      if (character !== '\n' && character !== '\r') continue;
      this.#line(this.#buffer + text.slice(start, index), messages);
      this.#buffer = '';
      if (character === '\r') {
        if (index + 1 === text.length) this.#pendingCarriageReturn = true;
        else if (text[index + 1] === '\n') index += 1;
      }
      start = index + 1;
    }
    this.#buffer += text.slice(start);
    return messages;
  }

  #line(line: string, messages: SseMessage[]): void {
    if (line === '') {
      if (this.#data.length > 0) messages.push({ id: this.#id, event: this.#event || 'message', data: this.#data.join('\n') });
      this.#data = [];
      this.#event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\u0000')) this.#id = value;
  }
}
