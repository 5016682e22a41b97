/**
 * Splits highlight.js HTML into one fragment per line. A token can span lines (a block comment,
 * a template string), so at each newline the open spans are closed and reopened on the next
 * line: every fragment is well-formed on its own. The input is highlight.js output: text is
 * already escaped and the only tags are `<span class="…">` and `</span>`.
 */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const openTags: string[] = [];
  let current = '';
  const pattern = /(<span[^>]*>)|(<\/span>)|(\n)|([^<\n]+)/g;
  for (const match of html.matchAll(pattern)) {
    const [, open, close, newline, text] = match;
    if (open) {
      openTags.push(open);
      current += open;
    } else if (close) {
      openTags.pop();
      current += close;
    } else if (newline) {
      lines.push(current + '</span>'.repeat(openTags.length));
      current = openTags.join('');
    } else if (text) {
      current += text;
    }
  }
  lines.push(current);
  return lines;
}
