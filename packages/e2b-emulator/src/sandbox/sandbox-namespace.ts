import { NamespaceSandbox, type Launch, type SandboxSpec } from '@runtimectl/namespace-sandbox';

/** How long a sandbox's kill waits for its namespace (and everything in it) to be gone. */
const STOP_WITHIN_MS = 5_000;

/**
 * Where a sandbox's namespace is: `none` (not started: no command yet, stopped, or directory
 * isolation), `starting`, `ready` (its last start succeeded), `failed` (its last start failed;
 * the next command starts it again).
 */
export type NamespaceState = 'none' | 'starting' | 'ready' | 'failed';

/**
 * The namespace sandbox one E2B sandbox's commands share, started when the sandbox is created
 * (`warm`, as a real sandbox's envd is up when create answers) or else on its first command: a
 * background job (`cmd &`) outlives the command that started it, as in a real E2B sandbox, and
 * stopping it (sandbox kill) kills everything inside, `setsid` children too.
 */
export class SandboxNamespace {
  #holder: Promise<NamespaceSandbox> | undefined;
  #state: NamespaceState = 'none';

  constructor(private readonly spec: SandboxSpec) {}

  /** Starts the namespace now, in the background: the sandbox's first command then finds it up. */
  warm(): void {
    if (this.#holder) return;
    this.#start();
  }

  /** Whether the namespace was started (by `warm` or a command) and not stopped since. */
  get started(): boolean {
    return this.#holder !== undefined;
  }

  /** Where its latest start is (the admin API shows it, so a test can wait for `ready`). */
  get state(): NamespaceState {
    return this.#state;
  }

  /**
   * How to run `command` at `cwd` (a sandbox path) inside with `env` (the host side never gets
   * it), as root or as the user whose uid inside is `user`; restarts the namespace if it died.
   */
  async launch(cwd: string, command: string[], env: Record<string, string>, user?: number): Promise<Launch> {
    const previous = await this.#holder?.catch(() => undefined);
    if (!previous || !(await previous.isRunning())) this.#start();
    return (await this.#holder!).launch(cwd, command, env, user);
  }

  async stop(): Promise<void> {
    const holder = await this.#holder?.catch(() => undefined);
    this.#holder = undefined;
    this.#state = 'none';
    await holder?.kill(STOP_WITHIN_MS);
  }

  #start(): void {
    const holder = NamespaceSandbox.start(this.spec);
    this.#holder = holder;
    this.#state = 'starting';
    const settle = (state: NamespaceState) => () => {
      if (this.#holder === holder) this.#state = state;
    };
    holder.then(settle('ready'), settle('failed'));
  }
}
