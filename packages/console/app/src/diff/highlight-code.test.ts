import { describe, expect, it } from 'vitest';
import { highlightLines, languageForPath } from './highlight-code';
import { splitLines } from './pair-diff-lines';

describe('highlightLines', () => {
  it('picks the language from the extension', () => {
    expect(languageForPath('src/app.ts')).toBe('typescript');
    expect(languageForPath('README.md')).toBe('markdown');
    expect(languageForPath('bin/run.unknown')).toBe('plaintext');
    expect(languageForPath('.bashrc')).toBe('plaintext');
  });

  it('returns one fragment per line, as many as the diff counts, with HTML escaped', () => {
    const text = 'const a = "<b>";\n/* multi\nline */\nlet b = 2;\n';
    const lines = highlightLines(text, 'x.ts');
    expect(lines).toHaveLength(splitLines(text).length);
    expect(lines[0]).toContain('&lt;b&gt;');
    expect(lines[2]).toMatch(/^<span class="hljs-comment">line \*\/<\/span>$/);
  });

  it('counts no extra line after a final newline that falls inside a token left open (HTML in a .ts file)', () => {
    const text = '</code><script>x</script><img src=x onerror="y">\n';
    expect(highlightLines(text, 'x.ts')).toHaveLength(splitLines(text).length);
  });
});
