// A placement per aspect ratio: switching 16:9 → 9:16 takes the template's 9:16 placement
// (the 16:9 one would cut the presenter off), and switching back restores the creator's.
import { describe, expect, it } from 'vitest';
import { blankScene, type Template } from '../../shared/contract/index.js';
import { publicTemplate, templateEntry } from '../../shared/scene/catalog.js';
import { atAspectRatio, type EditorDocument } from '../store/document.js';

const newsroom: Template = publicTemplate(templateEntry('newsroom')!, '');

describe('placements per aspect ratio', () => {
  it('keeps one placement per ratio, the video\'s and a scene\'s own', () => {
    const mine = { scale: 0.5, x: 0.8, y: 0.6 };
    const sceneOwn = { scale: 0.4, x: 0.2, y: 0.6 };
    const doc: EditorDocument = {
      version: 3, name: 'x', templateId: 'newsroom', voiceId: null, params: { aspectRatio: '16:9', avatar: mine }, placements: {}, presenterId: null,
      scenes: [blankScene('a'), { ...blankScene('b'), avatar: sceneOwn }],
    };
    const tall = atAspectRatio(doc, '9:16', newsroom);
    expect(tall.params).toEqual({ aspectRatio: '9:16', avatar: newsroom.placements!['9:16'] });
    expect(tall.scenes[1]!.avatar).toBeNull(); // the video's placement at 9:16
    const back = atAspectRatio(tall, '16:9', newsroom);
    expect(back.params.avatar).toEqual(mine);
    expect(back.scenes[1]!.avatar).toEqual(sceneOwn);
    expect(back.placements).toEqual({ '9:16': newsroom.placements!['9:16'] });
  });
});
