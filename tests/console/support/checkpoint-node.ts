import type { Locator, Page } from 'playwright-core';

/** The lineage's tree of checkpoints (an `svg` with role group). */
export function checkpointTree(page: Page): Locator {
  return page.getByRole('group', { name: 'Checkpoint tree' });
}

/** A checkpoint's node in the tree: a button named "<kind> <name or short id> <checkpoint_id>". */
export function checkpointNode(page: Page, checkpointId: string): Locator {
  return checkpointTree(page).getByRole('button', { name: new RegExp(`${checkpointId}$`) });
}

/** The details panel of the selected checkpoint. */
export function checkpointDetails(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Checkpoint details' });
}

/**
 * Clicks a checkpoint's node (its mark: the circle or diamond) and
 * waits for its details (which name its id). With `keyboard`, focuses the node and presses Enter.
 */
export async function selectCheckpoint(page: Page, checkpointId: string, options: { keyboard?: boolean } = {}): Promise<Locator> {
  const node = checkpointNode(page, checkpointId);
  if (options.keyboard) {
    await node.focus();
    await node.press('Enter');
  } else {
    // Focus first, as a keyboard or touch user brings it on screen: the tree pans a focused node
    // into view (a phone shows a part of the tree), which the page's own scrolling cannot do.
    await node.focus();
    await node.locator('.shape').click();
  }
  const details = checkpointDetails(page).filter({ hasText: checkpointId });
  await details.waitFor();
  return details;
}
