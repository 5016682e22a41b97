import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { ReportedHookContext, Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { killDescendants } from './process-tree';

/** The variable that sets the bound (ms); CI sets it, a person running one package may too. */
export const PACKAGE_BOUND_ENV = 'RUNTIMECTL_TEST_PACKAGE_BOUND_MS';
/** A package whose tests run longer than this is stuck, not slow: the slowest one takes ~6 min. */
export const DEFAULT_PACKAGE_BOUND_MS = 20 * 60_000;

export interface PackageWatchdogOptions {
  /** How long the package's test run may take (default: PACKAGE_BOUND_ENV, else 20 min). */
  boundMs?: number;
  /** The JSON report the run would have written (relative to the package): the watchdog writes it instead. */
  outputFile?: string;
}

interface RunningFile {
  sinceMs: number;
  /** What it was doing last: loading, a hook, a test. */
  doing: string;
}

function minutes(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

function boundFromEnvironment(): number | undefined {
  const value = Number(process.env[PACKAGE_BOUND_ENV]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * A vitest reporter that bounds a package's whole test run. A test's timeout binds neither a
 * module-level `await` nor a worker that stopped answering, so one stuck server start could hold
 * CI until its own limit, with no hint of why. Past the bound this reporter prints the package,
 * each test file still running and what it was doing (loading, a hook, a named test), kills
 * every process the run started (workers and the servers they spawned), writes the package's
 * JSON report with the stuck files counted as failed, and exits 1.
 */
export class PackageWatchdog implements Reporter {
  readonly #boundMs: number;
  readonly #outputFile: string;
  readonly #running = new Map<string, RunningFile>();
  readonly #counts = { passed: 0, failed: 0, skipped: 0 };
  #root = process.cwd();
  #startedAtMs = Date.now();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: PackageWatchdogOptions = {}) {
    this.#boundMs = options.boundMs ?? boundFromEnvironment() ?? DEFAULT_PACKAGE_BOUND_MS;
    this.#outputFile = options.outputFile ?? 'test-results.json';
  }

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
    this.#startedAtMs = Date.now();
    this.#timer = setTimeout(() => this.#fire(), this.#boundMs);
    this.#timer.unref();
  }

  onTestModuleQueued(testModule: TestModule): void {
    this.#running.set(testModule.moduleId, { sinceMs: Date.now(), doing: 'loading it (imports or a module-level await)' });
  }

  onTestModuleCollected(testModule: TestModule): void {
    this.#note(testModule.moduleId, 'between tests (collected)');
  }

  onHookStart(hook: ReportedHookContext): void {
    const entity = hook.entity;
    const name = entity.type === 'module' ? 'the file' : `"${entity.fullName}"`;
    this.#note(entity.type === 'module' ? entity.moduleId : entity.module.moduleId, `in ${hook.name} of ${name}`);
  }

  onTestCaseReady(testCase: TestCase): void {
    this.#note(testCase.module.moduleId, `in the test "${testCase.fullName}"`);
  }

  onTestCaseResult(testCase: TestCase): void {
    const state = testCase.result().state;
    if (state === 'passed') this.#counts.passed += 1;
    else if (state === 'failed') this.#counts.failed += 1;
    else this.#counts.skipped += 1;
    this.#note(testCase.module.moduleId, 'between tests');
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.#running.delete(testModule.moduleId);
  }

  onTestRunEnd(): void {
    clearTimeout(this.#timer);
  }

  #note(moduleId: string, doing: string): void {
    const file = this.#running.get(moduleId);
    if (file) file.doing = doing;
    else this.#running.set(moduleId, { sinceMs: Date.now(), doing });
  }

  #packageName(): string {
    try {
      return (JSON.parse(readFileSync(join(this.#root, 'package.json'), 'utf8')) as { name?: string }).name ?? basename(this.#root);
    } catch {
      return basename(this.#root);
    }
  }

  #fire(): void {
    const now = Date.now();
    const name = this.#packageName();
    const files = [...this.#running].map(([moduleId, file]) => ({ file: relative(this.#root, moduleId), forMs: now - file.sinceMs, doing: file.doing }));
    const killed = killDescendants(process.pid);
    const stuck = Math.max(1, files.length);
    const lines = [
      `[ci-guard] ${name} ran past its bound of ${minutes(this.#boundMs)} and was stopped.`,
      ...files.map((file) => `[ci-guard]   still running: ${file.file} for ${minutes(file.forMs)}, ${file.doing}`),
      ...(files.length === 0 ? ['[ci-guard]   no test file was running: the run itself (a global setup or teardown) was stuck'] : []),
      `[ci-guard]   ${this.#counts.passed} passed and ${this.#counts.failed} failed before it; ${stuck} more counted as failed; ${killed} processes killed.`,
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
    const report = {
      numTotalTests: this.#counts.passed + this.#counts.failed + this.#counts.skipped + stuck,
      numPassedTests: this.#counts.passed,
      numFailedTests: this.#counts.failed + stuck,
      numPendingTests: this.#counts.skipped,
      numTodoTests: 0,
      startTime: this.#startedAtMs,
      success: false,
      testResults: [],
      watchdog: { package: name, boundMs: this.#boundMs, stillRunning: files, killedProcesses: killed },
    };
    writeFileSync(join(this.#root, this.#outputFile), `${JSON.stringify(report, null, 2)}\n`);
    process.exit(1);
  }
}
