import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../output/format-duration';
import { MIN_IDLE_PAUSE_AFTER_MS } from '@runtimectl/core';
import { daemonUrl, durationMs, idlePauseAfterMs, integerIn, keyValuePair, orKeywords, parseEnvPairs, parseMetadataPairs } from './parse-options';

describe('parseMetadataPairs', () => {
  it('parses values as JSON when they parse and keeps the rest as text', () => {
    expect(parseMetadataPairs(['count=3', 'ok=true', 'tags=["a","b"]', 'team=infra', 'none=null', 'eq=a=b'])).toEqual({
      count: 3,
      ok: true,
      tags: ['a', 'b'],
      team: 'infra',
      none: null,
      eq: 'a=b',
    });
  });

  it('is undefined when no pair was given, so the request omits metadata', () => {
    expect(parseMetadataPairs(undefined)).toBeUndefined();
    expect(parseMetadataPairs([])).toBeUndefined();
  });

  it('refuses a pair without a key as a usage error', () => {
    expect(() => parseMetadataPairs(['demo'])).toThrow(InvalidArgumentError);
    expect(() => parseMetadataPairs(['=1'])).toThrow(/expected key=value, got "=1"/);
  });
});

describe('parseEnvPairs', () => {
  it('keeps values as text, even when they look like JSON', () => {
    expect(parseEnvPairs(['A=1', 'B=true', 'C='])).toEqual({ A: '1', B: 'true', C: '' });
  });
});

describe('integerIn', () => {
  it('accepts whole numbers in range and refuses others', () => {
    const limit = integerIn(1, 500);
    expect(limit('20')).toBe(20);
    expect(() => limit('0')).toThrow(InvalidArgumentError);
    expect(() => limit('501')).toThrow(InvalidArgumentError);
    expect(() => limit('2.5')).toThrow(InvalidArgumentError);
    expect(() => limit('x')).toThrow(InvalidArgumentError);
  });
});

describe('keyValuePair', () => {
  it('collects pairs in order across repeats and refuses a bare word', () => {
    expect(keyValuePair('b=2', keyValuePair('a=1', undefined))).toEqual(['a=1', 'b=2']);
    expect(() => keyValuePair('demo', ['a=1'])).toThrow(/expected key=value, got "demo"/);
  });
});

describe('daemonUrl', () => {
  it('accepts http and https URLs and refuses anything else', () => {
    expect(daemonUrl('http://127.0.0.1:7333')).toBe('http://127.0.0.1:7333');
    expect(daemonUrl('https://runtimes.example.com/')).toBe('https://runtimes.example.com/');
    expect(() => daemonUrl('127.0.0.1:7333')).toThrow(InvalidArgumentError);
    expect(() => daemonUrl('localhost')).toThrow(/expected a URL such as/);
  });
});

describe('idlePauseAfterMs', () => {
  it("takes 0 (never) or a duration of at least the daemon's minimum, core's MIN_IDLE_PAUSE_AFTER_MS", () => {
    expect(['0', '1s', '1000', '15m'].map(idlePauseAfterMs)).toEqual([0, MIN_IDLE_PAUSE_AFTER_MS, 1_000, 900_000]);
    for (const bad of ['500ms', '999', '1', 'soon']) expect(() => idlePauseAfterMs(bad), bad).toThrow(InvalidArgumentError);
    expect(() => idlePauseAfterMs('500ms')).toThrow('expected 0 (never) or a duration of at least 1000 ms, got "500ms"');
  });
});

describe('durationMs and formatDuration', () => {
  it('reads one unit (a bare number is milliseconds) and prints the largest exact unit back', () => {
    const parse = durationMs(0, 10 * 86_400_000);
    expect(['1500', '500ms', '90s', '15m', '2h', '7d', '0'].map(parse)).toEqual([1_500, 500, 90_000, 900_000, 7_200_000, 604_800_000, 0]);
    expect([1_500, 90_000, 900_000, 7_200_000, 604_800_000, 5_400_000].map(formatDuration)).toEqual(['1500ms', '90s', '15m', '2h', '7d', '90m']);
  });

  it('refuses other shapes and values out of range as usage errors', () => {
    const parse = durationMs(1, 86_400_000);
    for (const bad of ['soon', '1.5h', '-5s', '2 h', '1h30m', '0', '2d', '']) expect(() => parse(bad), bad).toThrow(InvalidArgumentError);
  });
});

describe('orKeywords', () => {
  it('takes the keywords as themselves and anything else through the parser, whose refusal names them', () => {
    const parse = orKeywords(durationMs(0, 1000), 'off', 'default');
    expect(parse('default')).toBe('default');
    expect(parse('500ms')).toBe(500);
    expect(() => parse('soon')).toThrow('from 0 ms or off or default, got "soon"');
  });
});
