import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/chromium-path';
import { checkpointDetails, checkpointNode, checkpointTree, selectCheckpoint } from '../support/checkpoint-node';
import { startConsoleRig, type ConsoleRig } from '../support/console-rig';

const THOUSAND = 1_000;

describe.skipIf(!hasChromium)('the lineage view', () => {
  let rig: ConsoleRig;
  const tree = { first: '', second: '', scratch: '', fourth: '', pause: '', child: '' };
  let seedMs = 0;

  beforeAll(async () => {
    rig = await startConsoleRig();
    const { client } = rig.daemon;
    const write = (path: string, text: string) => client.writeFileBytes('tree-root', path, text);

    // A small tree: four checkpoints (one pinned, one whose snapshot is deleted), a checkout branch, a pause.
    await client.open({ runtime_id: 'tree-root', conversation_id: 'conv-tree', sender_id: 'agent' });
    await write('a.txt', 'a');
    tree.first = (await client.checkpoint({ runtime_id: 'tree-root', name: 'first' })).checkpoint_id;
    await write('b.txt', 'b');
    tree.second = (await client.checkpoint({ runtime_id: 'tree-root', name: 'second' })).checkpoint_id;
    await write('c.txt', 'c');
    tree.scratch = (await client.checkpoint({ runtime_id: 'tree-root', name: 'scratch' })).checkpoint_id;
    await write('d.txt', 'd');
    tree.fourth = (await client.checkpoint({ runtime_id: 'tree-root' })).checkpoint_id;
    await client.pinCheckpoint({ checkpoint_id: tree.second });
    await client.deleteCheckpointSnapshot({ checkpoint_id: tree.scratch });
    tree.child = (await client.checkout({ checkpoint_id: tree.first })).runtime.runtime_id;
    tree.pause = (await client.pause({ runtime_id: 'tree-root' })).checkpoint_id;

    // 1,000 checkpoints in one runtime: an unchanged runtime's checkpoints reuse its snapshot, so they are quick.
    const started = Date.now();
    await client.open({ runtime_id: 'thousand', conversation_id: 'conv-big', sender_id: 'agent' });
    await client.writeFileBytes('thousand', 'seed.txt', 'one file');
    for (let i = 0; i < THOUSAND; i++) await client.checkpoint({ runtime_id: 'thousand', ...(i % 100 === 0 ? { name: `hundred-${i / 100}` } : {}) });
    seedMs = Date.now() - started;
    console.log(`console lineage: seeded ${THOUSAND} checkpoints in ${seedMs} ms`);
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('draws a small tree with its named, pinned, deleted-snapshot and pause checkpoints and its checkout branch', async () => {
    const page = await rig.openConsole('/runtimes/tree-root');
    await page.getByRole('heading', { name: 'Lineage of tree-root' }).waitFor();
    const svg = checkpointTree(page);
    await expect.poll(() => svg.getAttribute('data-checkpoint-count')).toBe('5');

    for (const id of [tree.first, tree.second, tree.scratch, tree.fourth, tree.pause]) await checkpointNode(page, id).waitFor();
    expect(await checkpointNode(page, tree.first).getAttribute('aria-label')).toMatch(/^checkpoint first /);
    expect(await checkpointNode(page, tree.second).getAttribute('aria-label')).toMatch(/^checkpoint second /);
    expect(await checkpointNode(page, tree.pause).getAttribute('aria-label')).toMatch(/^pause /);
    // An unnamed checkpoint is labelled by its short id.
    expect(await checkpointNode(page, tree.fourth).getAttribute('aria-label')).toContain(tree.fourth.slice(0, 13));

    // The marks: a diamond for the pause, a flag for the pin, a hollow node for the deleted snapshot.
    expect(await checkpointNode(page, tree.pause).getAttribute('class')).toMatch(/\bkind-pause\b/);
    expect(await checkpointNode(page, tree.second).getAttribute('class')).toMatch(/\bis-pinned\b/);
    expect(await checkpointNode(page, tree.first).getAttribute('class')).not.toMatch(/\bis-pinned\b/);
    expect(await checkpointNode(page, tree.scratch).getAttribute('class')).toMatch(/\bsnapshot-deleted\b/);
    expect(await checkpointNode(page, tree.first).getAttribute('class')).toMatch(/\bsnapshot-kept\b/);

    // The checkout branch: the child runtime's live head is in the tree, and the root's shows it paused.
    await svg.getByRole('button', { name: `live ${tree.child} idle`, exact: true }).waitFor();
    await svg.getByRole('button', { name: 'live tree-root paused', exact: true }).waitFor();

    // The details say the same in words: the pinned one offers Unpin, the others Pin.
    const second = await selectCheckpoint(page, tree.second);
    await second.getByRole('button', { name: 'Unpin', exact: true }).waitFor();
    const first = await selectCheckpoint(page, tree.first, { keyboard: true });
    await first.getByRole('button', { name: 'Pin', exact: true }).waitFor();
    const scratch = await selectCheckpoint(page, tree.scratch);
    expect(await scratch.innerText()).toMatch(/snapshot deleted/i);
    const pause = await selectCheckpoint(page, tree.pause);
    expect(await pause.innerText()).toMatch(/\bpause\b/);
    expect(await checkpointDetails(page).count()).toBe(1);

    // The node's label takes a click too, gaps between its glyphs included: the node's whole box does.
    const label = checkpointNode(page, tree.fourth);
    await label.focus();
    await label.click({ position: { x: (await label.boundingBox())!.width - 4, y: (await label.boundingBox())!.height / 2 } });
    await checkpointDetails(page).filter({ hasText: tree.fourth }).waitFor();
  });

  it(`renders ${THOUSAND} checkpoints, every one a button, and zooms`, async () => {
    // How long the render takes is printed, not asserted: a timed assertion measures the
    // neighbours on a 2-core CI machine as much as the code (it failed at 1,118 ms there while
    // other suites ran), and speed is the bench's to measure, never a test's.
    const page = await rig.openConsole('/runtimes/thousand');
    await page.getByRole('heading', { name: 'Lineage of thousand' }).waitFor();
    const tree = checkpointTree(page);
    await expect.poll(() => tree.getAttribute('data-checkpoint-count'), { timeout: 15_000 }).toBe(String(THOUSAND));
    await expect.poll(() => tree.getAttribute('data-render-ms')).not.toBeNull();
    const renderMs = Number(await tree.getAttribute('data-render-ms'));
    const svg = checkpointTree(page);
    console.log(`console lineage: ${THOUSAND} checkpoints rendered in ${renderMs} ms (seeding took ${seedMs} ms)`);
    expect(renderMs).toBeGreaterThan(0);
    expect(await svg.getByRole('button').count()).toBeGreaterThanOrEqual(THOUSAND);

    // The zoomed layer: the tree's outermost group (d3-zoom writes its transform).
    const layer = svg.locator(':scope > g').first();
    const transform = () => layer.getAttribute('transform');
    const initial = await transform();
    await page.getByRole('button', { name: 'Zoom in', exact: true }).click();
    await expect.poll(transform).not.toBe(initial);
    const zoomedIn = await transform();
    await page.getByRole('button', { name: 'Zoom out', exact: true }).click();
    await expect.poll(transform).not.toBe(zoomedIn);
    await page.getByRole('button', { name: 'Zoom in', exact: true }).click();
    await page.getByRole('button', { name: 'Zoom in', exact: true }).click();
    const beforeFit = await transform();
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await expect.poll(transform).not.toBe(beforeFit);
    expect(scaleOf(await transform())).toBeLessThan(scaleOf(beforeFit));
  });
});

/** The scale of an SVG transform attribute (`translate(x,y) scale(k)`); 1 without one. */
function scaleOf(transform: string | null): number {
  const match = /scale\(([-\d.e]+)/.exec(transform ?? '');
  return match ? Number(match[1]) : 1;
}
