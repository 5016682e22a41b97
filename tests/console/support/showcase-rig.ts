import { afterAll, beforeAll } from 'vitest';
import { startConsoleRig, type ConsoleRig } from './console-rig';
import { seedShowcase, type Showcase } from './seed-showcase';

/** A file's daemon and browser with the showcase seeded (filled before its tests run). */
export interface ShowcaseRig {
  rig: ConsoleRig;
  showcase: Showcase;
}

/** Registers the file's hooks: one rig with the showcase before all tests, closed after them. */
export function useShowcaseRig(): ShowcaseRig {
  const fixture = {} as ShowcaseRig;
  beforeAll(async () => {
    fixture.rig = await startConsoleRig();
    fixture.showcase = await seedShowcase(fixture.rig.daemon.client);
  });
  afterAll(async () => {
    await fixture.rig?.close();
  });
  return fixture;
}
