// The tools a user would reach for instead of a checkpoint, each holding its own copy of a
// workspace's tree: a git repository (`git add -A && git commit`), a durable tar (`tar -cf` +
// `sync -f`) and, where Debian's `restic` package is installed, a restic repository (`restic
// backup`). Times are taken after a `sync`, as every bench step here.
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { diskUsage } from './disk-usage.mjs';
import { run, timedAfterSync } from './timing.mjs';

/** Whether `restic` runs here (Debian: `apt-get install restic`); the bench reports it missing otherwise. */
export const resticInstalled = () => spawnSync('restic', ['version'], { stdio: 'ignore' }).status === 0;

/**
 * A copy of the tree at `source` under `scratch/<name>`, committed to git once and, with
 * `restic`, backed up once: `first` holds those times and the durable tar's; `change(path)`
 * then times the same 1 MiB change in git and restic (`changeFile` writes it into the copy).
 */
export async function referenceCopy(source, scratch, name, { restic }) {
  const tree = join(scratch, `${name}-tree`);
  run('cp', ['-a', `${source}/.`, tree]);
  // Measured before git runs: `.git` is no fixed size to subtract later (see gc.auto below).
  const copyBytes = await diskUsage(tree);
  // The copy keeps the sandbox identity as owner: git must be told the repository is safe. No
  // automatic gc: past 6,700 loose objects `git commit` packs them in a process it leaves
  // running, which took CPU from the figures measured next and (packing while `.git` was being
  // measured) once made "one copy of the workspace" read 20 MiB low. Git's times leave gc out.
  const git = (...argv) =>
    run('git', ['-C', tree, '-c', `safe.directory=${tree}`, '-c', 'gc.auto=0', '-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...argv]);
  const repository = join(scratch, `${name}-restic`);
  const resticEnv = { ...process.env, RESTIC_PASSWORD: 'bench', RESTIC_CACHE_DIR: join(scratch, `${name}-restic-cache`) };
  const backup = () => resticRun(['-r', repository, 'backup', '--quiet', '--host', 'bench', '--exclude', join(tree, '.git'), tree], resticEnv);
  const archive = join(scratch, `${name}.tar`);
  const first = { durableTar: (await timedAfterSync(() => { run('tar', ['-cf', archive, '-C', tree, '--exclude=./.git', '.']); run('sync', ['-f', archive]); })).ms };
  await rm(archive);
  git('init', '-q');
  first.git = (await timedAfterSync(() => { git('add', '-A'); git('commit', '-q', '-m', 'first'); })).ms;
  if (restic) {
    resticRun(['-r', repository, 'init'], resticEnv);
    first.restic = (await timedAfterSync(backup)).ms;
  }
  return {
    tree,
    /** Disk one plain copy of the tree takes (blocks, as `du`). */
    copyBytes,
    first,
    /** Times committing (and backing up) a change already written into `tree`. */
    async change(round) {
      const times = { git: (await timedAfterSync(() => { git('add', '-A'); git('commit', '-q', '-m', `round ${round}`); })).ms };
      if (restic) times.restic = (await timedAfterSync(backup)).ms;
      return times;
    },
  };
}

function resticRun(argv, env) {
  const result = spawnSync('restic', argv, { stdio: ['ignore', 'ignore', 'pipe'], env });
  if (result.status !== 0) throw new Error(`restic ${argv[2] ?? argv[0]}: ${result.stderr?.toString().trim() || `exit ${result.status}`}`);
}
