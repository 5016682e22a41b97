import { describe, expect, it } from 'vitest';
import { splitHighlightedLines } from './split-highlighted-lines';

describe('splitHighlightedLines', () => {
  it('closes and reopens a span that crosses lines', () => {
    const html = 'a <span class="hljs-comment">/* one\ntwo */</span> b\nc';
    expect(splitHighlightedLines(html)).toEqual(['a <span class="hljs-comment">/* one</span>', '<span class="hljs-comment">two */</span> b', 'c']);
  });

  it('keeps nested spans balanced on every line', () => {
    const html = '<span class="a"><span class="b">x\ny</span>\nz</span>';
    const lines = splitHighlightedLines(html);
    expect(lines).toEqual(['<span class="a"><span class="b">x</span></span>', '<span class="a"><span class="b">y</span></span>', '<span class="a">z</span>']);
    for (const line of lines) expect(line.match(/<span/g)?.length).toBe(line.match(/<\/span>/g)?.length);
  });

  it('keeps escaped text as it is', () => {
    expect(splitHighlightedLines('&lt;b&gt;\n&amp;')).toEqual(['&lt;b&gt;', '&amp;']);
  });
});
