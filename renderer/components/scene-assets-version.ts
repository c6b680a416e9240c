// A number that changes whenever more of the scene art has loaded: a thumbnail that lists it
// among its effect's dependencies draws again with the art that arrived.
import { useEffect, useReducer } from 'react';
import { onSceneAssets } from '../canvas/scene.js';

export function useSceneAssetsVersion(): number {
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => onSceneAssets(bump), []);
  return version;
}
