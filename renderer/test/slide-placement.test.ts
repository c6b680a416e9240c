// Where a deck's scenes go: after the selected scene, or into it while it is still empty.
import { beforeEach, describe, expect, it } from 'vitest';
import { blankScene } from '../../shared/contract/index.js';
import { slideScenes } from '../lib/pdf-import.js';
import { useStudio as sceneStore } from '../store/index.js';
import { placeScenes } from '../store/scene-actions.js';

const scenes = () => sceneStore.getState().document.scenes;
const texts = () => scenes().map((s) => s.text);

beforeEach(() => sceneStore.setState(sceneStore.getInitialState(), true));

describe('placing slide scenes', () => {
  it('fills an empty selected scene with the first page and follows it with the rest, the first selected', () => {
    const first = scenes()[0]!.id;
    placeScenes(slideScenes('ast_deck', ['One.', 'Two.', 'Three.']));
    expect(texts()).toEqual(['One.', 'Two.', 'Three.']);
    expect(scenes()[0]!.id).toBe(first);
    expect(scenes().map((s) => s.background?.page)).toEqual([1, 2, 3]);
    expect(sceneStore.getState().selectedSceneId).toBe(first);
  });

  it('goes right after a selected scene that has something in it', () => {
    const [a, b] = [blankScene('Hello.'), blankScene('Bye.')];
    sceneStore.setState({ document: { ...sceneStore.getState().document, scenes: [a, b] }, selectedSceneId: a.id });
    const made = slideScenes('ast_deck', ['One.', 'Two.']);
    placeScenes(made);
    expect(texts()).toEqual(['Hello.', 'One.', 'Two.', 'Bye.']);
    expect(sceneStore.getState().selectedSceneId).toBe(made[0]!.id);
  });
});
