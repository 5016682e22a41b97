import { ServerStartError } from '../src/server-process/index';

/** The `ServerStartError` a start rejected with; throws when it resolved or failed otherwise. */
export async function startFailure(start: Promise<unknown>): Promise<ServerStartError> {
  const error = await start.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!ServerStartError.isInstance(error)) throw new Error(`expected a ServerStartError, got ${String(error)}`);
  return error;
}
