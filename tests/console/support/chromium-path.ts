import { existsSync } from 'node:fs';

/** Debian's Chromium (`apt-get install chromium`): playwright's own download is not reachable. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Whether the browser the suite drives is installed; every file skips without it. */
export const hasChromium = existsSync(CHROMIUM_PATH);

/** The one line a run without Chromium prints. */
export const SKIP_LINE = `console tests: skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;
