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
