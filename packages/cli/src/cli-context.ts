import { randomUUID } from 'node:crypto';
import { createRuntimectlClient, type RuntimectlClient } from '@runtimectl/client';
import type { CliIo } from './cli-io';
import { colorsFor, type Colors } from './output/colors';
import { startSpinner, withSpinner } from './output/spinner';

/** The global options every command sees (program.ts defines them). */
export interface GlobalOptions {
  url: string;
  token?: string;
  json?: boolean;
  quiet?: boolean;
  /** The command's Idempotency-Key (program.ts gives a new one when none is given). */
  idempotencyKey?: string;
}

/** How a command's result is printed in each output mode. */
export interface Rendering<T> {
  /** Lines for a person (tables, sentences). */
  human(result: T): string | string[];
  /** `--quiet`: only the ids a script would capture, one per line (nothing when omitted). */
  quiet?(result: T): string[];
}

/** Provider calls are bounded by the daemon; this only catches a daemon that stopped answering. */
const REQUEST_TIMEOUT_MS = 10 * 60_000;

/**
 * What a command action works with: the client for --url/--token and the output conventions
 * (--json: exactly one JSON document on stdout; --quiet: ids only; colour and spinners only
 * where a person is watching).
 */
export class CliContext {
  readonly url: string;
  readonly tokenGiven: boolean;
  readonly json: boolean;
  readonly quiet: boolean;
  readonly colors: Colors;
  readonly io: CliIo;
  readonly #token: string | undefined;
  readonly #idempotencyKey: string;
  #requests = 0;
  #client: RuntimectlClient | undefined;

  constructor(options: GlobalOptions, io: CliIo) {
    this.url = options.url;
    this.#token = options.token || undefined;
    this.tokenGiven = this.#token !== undefined;
    this.json = options.json === true;
    this.quiet = options.quiet === true;
    this.io = io;
    this.colors = colorsFor(io.stdout, io.env);
    this.#idempotencyKey = options.idempotencyKey ?? randomUUID();
  }

  get client(): RuntimectlClient {
    this.#client ??= this.clientWithTimeout(REQUEST_TIMEOUT_MS);
    return this.#client;
  }

  /** A client whose per-request deadline fits a long operation (exec with a long --timeout). */
  clientWithTimeout(timeoutMs: number): RuntimectlClient {
    return createRuntimectlClient({
      baseUrl: this.url,
      timeoutMs,
      idempotencyKeys: () => this.#nextIdempotencyKey(),
      ...(this.#token ? { token: this.#token } : {}),
    });
  }

  /**
   * The command's key for its first POST, `<key>.<n>` for its n-th: the same command run again
   * with `--idempotency-key` sends the same keys for the same requests.
   */
  #nextIdempotencyKey(): string {
    this.#requests += 1;
    return this.#requests === 1 ? this.#idempotencyKey : `${this.#idempotencyKey}.${this.#requests}`;
  }

  nowMs(): number {
    return Date.now();
  }

  /** Prints `result` in the mode the user asked for. */
  emit<T>(result: T, rendering: Rendering<T>): void {
    if (this.json) return this.printJson(result);
    if (this.quiet) {
      for (const line of rendering.quiet?.(result) ?? []) this.print(line);
      return;
    }
    const human = rendering.human(result);
    for (const line of Array.isArray(human) ? human : [human]) this.print(line);
  }

  printJson(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  print(line: string): void {
    this.io.stdout.write(`${line}\n`);
  }

  /** A note for a person on stderr (what to do next); silent under --json and --quiet. */
  hint(line: string): void {
    if (!this.json && !this.quiet) this.io.stderr.write(`${line}\n`);
  }

  /** Runs a provider-bound operation under a spinner on stderr (TTY only, never with --quiet). */
  waitOn<T>(text: string, operation: () => Promise<T>): Promise<T> {
    return withSpinner(startSpinner(text, this.io.stderr, !this.quiet), operation);
  }
}
