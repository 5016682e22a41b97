import { z } from 'zod';

/**
 * What the kernel accepts for a command, so exec input it would refuse (`spawn E2BIG`, or a NUL
 * byte Node cannot pass to `execve`) is a 400 naming the field instead of a provider error.
 * Linux caps one argument or environment string at 128 KiB (MAX_ARG_STRLEN) and all of them
 * together at a quarter of the stack limit; these stay well inside both, counted in UTF-8 bytes.
 */
export const EXEC_COMMAND_MAX_BYTES = 64 * 1024;
export const EXEC_ENV_VALUE_MAX_BYTES = 32 * 1024;
/** All of `env` together: each `NAME=value` plus its terminating NUL. */
export const EXEC_ENV_TOTAL_MAX_BYTES = 128 * 1024;

const utf8Bytes = (value: string) => Buffer.byteLength(value, 'utf8');
const hasNoNul = (value: string) => !value.includes('\u0000');
const NO_NUL = { message: 'cannot contain NUL bytes' };

/** A string passed to `execve`: at most `maxBytes` of UTF-8, no NUL byte. */
function execStringSchema(maxBytes: number, minLength = 0) {
  return z
    .string()
    .min(minLength)
    .refine(hasNoNul, NO_NUL)
    .refine((value) => utf8Bytes(value) <= maxBytes, { message: `must be at most ${maxBytes} bytes (UTF-8)` });
}

export const ExecCommandSchema = execStringSchema(EXEC_COMMAND_MAX_BYTES, 1);

export const ExecShellSchema = z.string().min(1).max(256).refine(hasNoNul, NO_NUL);

const EnvNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,255}$/, 'an environment variable name');

export const ExecEnvSchema = z
  .record(EnvNameSchema, execStringSchema(EXEC_ENV_VALUE_MAX_BYTES))
  .refine(
    (env) => Object.entries(env).reduce((total, [name, value]) => total + utf8Bytes(name) + utf8Bytes(value) + 2, 0) <= EXEC_ENV_TOTAL_MAX_BYTES,
    { message: `must be at most ${EXEC_ENV_TOTAL_MAX_BYTES} bytes in all (each NAME=value counted in UTF-8, plus one byte)` },
  );
