import { describe, expect, it } from 'vitest';
import { createHarness, rejectionOf } from './harness';

describe('auto-resume (auto_resume)', () => {
  it('an operation on a paused auto_resume runtime resumes it once, reports the resume and logs it as automatic; on a live one it reports none', async () => {
    const h = createHarness();
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', auto_resume: true });
    const id = runtime.runtime_id;
    await h.write(id, 'f.txt', 'kept');
    await h.service.pause({ runtime_id: id });
    const resumes: number[] = [];
    const onResume = (durationMs: number) => resumes.push(durationMs);
    const read = await h.service.readFile({ runtime_id: id, path: 'f.txt' }, { onResume });
    expect(Buffer.from(read.content_base64, 'base64').toString()).toBe('kept');
    expect(resumes).toHaveLength(1);
    await h.service.stat({ runtime_id: id, path: 'f.txt' }, { onResume });
    expect(resumes).toHaveLength(1);
    const events = (await h.service.listEvents({ types: ['runtime.resumed'] })).events;
    expect(events.map((event) => event.runtime_id)).toEqual([id]);
    // An auto-resume does not read as a user's resume.
    expect(events.map((event) => event.data)).toEqual([{ reason: 'auto' }]);
  });

  it('five parallel execs on a paused auto_resume runtime all succeed, and the runtime is resumed once', async () => {
    const h = createHarness();
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', auto_resume: true });
    const id = runtime.runtime_id;
    await h.write(id, 'f.txt', 'kept');
    await h.service.pause({ runtime_id: id });
    const checkoutsBefore = h.provider.calls.checkout;
    const resumes: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, index) => h.service.exec({ runtime_id: id, command: `echo ${index}` }, { onResume: (ms) => resumes.push(ms) })),
    );
    expect(results.map((result) => (result.status === 'fulfilled' ? 'ok' : (result.reason as { code: string }).code))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(h.provider.calls.checkout - checkoutsBefore).toBe(1);
    expect((await h.service.listEvents({ types: ['runtime.resumed'] })).events).toHaveLength(1);
    // Each waited for the one resume: each reports it.
    expect(resumes).toHaveLength(5);
    expect((await h.service.get(id)).runtime.status).toBe('idle');
    expect(await h.read(id, 'f.txt')).toBe('kept');
  });

  it('an exec arriving while the auto-resume runs waits for it instead of answering session_busy', async () => {
    let release!: () => void;
    const resumeHeld = new Promise<void>((resolve) => (release = resolve));
    let resumeStarted!: () => void;
    const resumeRunning = new Promise<void>((resolve) => (resumeStarted = resolve));
    const h = createHarness();
    // The provider's restore (the resume's checkout) waits until the test lets it go.
    const checkout = h.provider.checkout!.bind(h.provider);
    Object.assign(h.provider, {
      checkout: async (...args: Parameters<typeof checkout>) => {
        resumeStarted();
        await resumeHeld;
        return checkout(...args);
      },
    });
    const { runtime } = await h.service.open({ conversation_id: 'c', sender_id: 's', auto_resume: true });
    const id = runtime.runtime_id;
    await h.service.pause({ runtime_id: id });
    const first = h.service.exec({ runtime_id: id, command: 'true' });
    await resumeRunning;
    const second = h.service.exec({ runtime_id: id, command: 'true' });
    release();
    expect((await first).exit_code).toBe(0);
    expect((await second).exit_code).toBe(0);
    expect((await h.service.listEvents({ types: ['runtime.resumed'] })).events).toHaveLength(1);
  });

  it('a checkpoint of a paused runtime reuses its pause snapshot and leaves it paused; the daemon default applies to runtimes without their own', async () => {
    const h = createHarness({ idle: { autoResume: true } });
    const id = await h.open();
    await h.service.pause({ runtime_id: id });
    await h.service.checkpoint({ runtime_id: id });
    expect((await h.service.get(id)).runtime.status).toBe('paused');
    await h.service.exec({ runtime_id: id, command: 'true' });
    expect((await h.service.get(id)).runtime.status).toBe('idle');
    await h.service.update({ runtime_id: id, auto_resume: false });
    await h.service.pause({ runtime_id: id });
    expect((await rejectionOf(h.service.exec({ runtime_id: id, command: 'true' }))).code).toBe('runtime_paused');
  });
});
