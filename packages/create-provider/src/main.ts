import { parseArgs } from 'node:util';
import { CreateProviderError, createProject } from './create-project';

const USAGE = 'usage: create-provider <dir> [--id <provider id>] [--name <npm package name>]';

function run(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { id: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n\nWrites a runtimectl provider project into <dir>: working code, the conformance suite, a README.\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new CreateProviderError(`one directory expected (${USAGE})`);
  const project = createProject({ directory: positionals[0]!, id: values.id, name: values.name });
  process.stdout.write(
    [
      `Created ${project.name} (provider id "${project.id}") in ${project.directory}`,
      '',
      'Next:',
      `  cd ${project.directory}`,
      '  npm install',
      '  npm test        # the provider conformance suite',
      '  npm run build   # dist/, what runtimed loads',
      '',
      'Then run it in runtimed (runtimed.toml):',
      `  [providers.${project.id}]`,
      `  package = ${JSON.stringify(project.directory)}`,
      '',
    ].join('\n'),
  );
  return 0;
}

try {
  process.exitCode = run(process.argv.slice(2));
} catch (error) {
  // A user's mistake (or a flag parseArgs refused) is one line; anything else is a bug, shown whole.
  const known = error instanceof CreateProviderError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  process.stderr.write(`create-provider: ${known ? (error as Error).message : String((error as Error).stack ?? error)}\n`);
  process.exitCode = 1;
}
