// The document's optional music: a document saved before it reads as before (no music, the
// same request), and music picked in the app goes out with the request and comes back from a job.
import { describe, expect, it } from 'vitest';
import { blankScene, documentOfJob, migrateDocument, newDocumentMusic, toRenderRequest, VideoDocument } from '../document.js';
import { RenderRequest, SOUND_LIMITS } from '../schemas.js';

const saved = { version: 2, name: 'Launch', templateId: 'newsroom', voiceId: 'en-US-Ava', params: {}, scenes: [{ ...blankScene('Hello there.'), id: 's_1' }] };

describe('music in the video document', () => {
  it('a version-2 document without music reads unchanged and renders without music', () => {
    const doc = migrateDocument(structuredClone(saved));
    expect(doc.music).toBeUndefined();
    expect(toRenderRequest(doc)).toEqual({ templateId: 'newsroom', voiceId: 'en-US-Ava', text: 'Hello there.' });
  });

  it('music goes out with the request (without the name shown in the app), one scene or several', () => {
    const doc = VideoDocument.parse({ ...migrateDocument(structuredClone(saved)), music: { ...newDocumentMusic('ast_01JB00000000000000000000AA', 'Calm morning'), volume: 0.4 } });
    const music = { assetId: 'ast_01JB00000000000000000000AA', volume: 0.4, duck: SOUND_LIMITS.musicDuckDefault };
    expect(RenderRequest.parse(toRenderRequest(doc)).music).toEqual(music);
    const two = { ...doc, scenes: [...doc.scenes, { ...blankScene('Second.'), id: 's_2' }] };
    expect(toRenderRequest(two)).toMatchObject({ music, scenes: [{ text: 'Hello there.' }, { text: 'Second.' }] });
  });

  it('a job with music duplicates into a document with that music', () => {
    const job = { text: 'Hello there.', templateId: 'newsroom', voiceId: 'en-US-Ava', params: { aspectRatio: '16:9' as const, avatar: { scale: 1, x: 0.5, y: 0.5 } }, music: { assetId: 'ast_01JB00000000000000000000AA', volume: 0.25, duck: false } };
    expect(documentOfJob(job, 'Copy').music).toEqual({ ...job.music, name: '' });
    expect(documentOfJob({ ...job, music: undefined }, 'Copy')).not.toHaveProperty('music');
  });

  it('a volume outside 0–1 is refused in a saved document', () => {
    expect(VideoDocument.safeParse({ ...migrateDocument(structuredClone(saved)), music: { ...newDocumentMusic('ast_x', 'x'), volume: 2 } }).success).toBe(false);
  });
});
