import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { splitHighlightedLines } from './split-highlighted-lines';

// Registered explicitly: the core build keeps the bundle to the languages agents' workspaces mostly hold.
const LANGUAGES = { bash, css, diff, go, javascript, json, markdown, plaintext, python, rust, shell, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'typescript',
  json: 'json', jsonl: 'json', py: 'python', sh: 'bash', bash: 'bash', zsh: 'bash',
  yml: 'yaml', yaml: 'yaml', md: 'markdown', markdown: 'markdown', css: 'css',
  html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml', go: 'go', rs: 'rust',
  diff: 'diff', patch: 'diff', txt: 'plaintext', toml: 'plaintext',
};

/** The highlight.js language for a path, by extension (or a well-known name); plaintext otherwise. */
export function languageForPath(path: string): string {
  const name = path.split('/').pop() ?? '';
  if (name === 'Dockerfile' || name === 'Makefile') return 'bash';
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? LANGUAGE_BY_EXTENSION[name.slice(dot + 1).toLowerCase()] : undefined) ?? 'plaintext';
}

/** Highlights the whole text (so multi-line tokens are right) and returns escaped HTML per line. */
export function highlightLines(text: string, path: string): string[] {
  const language = languageForPath(path);
  let html: string;
  try {
    html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  } catch {
    html = hljs.highlight(text, { language: 'plaintext' }).value;
  }
  const lines = splitHighlightedLines(html);
  // A final newline ends the last line; it does not start an empty one (as splitLines counts).
  // (It may still hold the spans a token open across that newline closes and reopens: empty all the same.)
  if (text.endsWith('\n') && lines.length > 1 && lines[lines.length - 1]!.replace(/<[^>]*>/g, '') === '') lines.pop();
  return text === '' ? [] : lines;
}
