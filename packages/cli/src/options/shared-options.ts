import { Option } from 'commander';
import { integerIn, keyValuePair } from './parse-options';

/** `-m key=value…`, the same on every command that records metadata (read with parseMetadataPairs). */
export function metadataOption(description = 'metadata; values are JSON when they parse, else text'): Option {
  return new Option('-m, --metadata <key=value...>', description).argParser(keyValuePair);
}

/** `-n name` of the checkpoint a command records. */
export function checkpointNameOption(what = 'checkpoint'): Option {
  return new Option('-n, --name <name>', `a name for the ${what}`);
}

/** `-n N` children of an N-way checkout or fork (1-100): the answer then has one result per child. */
export function childCountOption(): Option {
  return new Option('-n, --count <n>', 'check out N children at once (1-100), one result per child').argParser(integerIn(1, 100));
}
