import picocolors from 'picocolors';

export type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * Colour only where a person reads it: never when NO_COLOR is set (https://no-color.org, any
 * value), forced by FORCE_COLOR (non-empty and not "0"), otherwise only on a TTY that is not
 * TERM=dumb. Pipes and files get plain text.
 */
export function shouldColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if ('NO_COLOR' in env) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

export function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Colors {
  return picocolors.createColors(shouldColor(stream, env));
}
