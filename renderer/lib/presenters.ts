// Who speaks in a document and which voices suit them: pure facts the pickers show.
import type { Gender, Presenter, Template, Voice } from '../../shared/contract/index.js';
import type { DocumentScene, VideoDocument } from '../../shared/contract/document.js';
import { castEntry } from '../../shared/scene/presenters.js';

/** What the pickers need to know of a presenter. */
export interface PresenterFacts {
  id: string;
  name: string;
  gender: Gender | null;
}

/** A presenter by id: the API's list first, then the built-in cast (the app draws those itself). */
export function presenterFacts(presenters: readonly Presenter[], id: string): PresenterFacts {
  const p = presenters.find((x) => x.id === id);
  if (p) return { id, name: p.name, gender: p.gender ?? null };
  const c = castEntry(id);
  return { id, name: c?.name ?? id, gender: c?.gender ?? null };
}

/** Who speaks in a scene (default the selected one's video): its own, else the video's, else the template's suggestion. */
export function speakingPresenter(
  doc: Pick<VideoDocument, 'presenterId'>, template: Template | null, presenters: readonly Presenter[], scene?: Pick<DocumentScene, 'presenterId'>,
): PresenterFacts | null {
  const id = scene?.presenterId ?? doc.presenterId ?? template?.presenter.id ?? null;
  return id ? presenterFacts(presenters, id) : null;
}

/** A voice suits a presenter of the same gender; a neutral voice or presenter suits anyone. */
export function voiceSuits(voice: Pick<Voice, 'gender'>, presenter: PresenterFacts | null): boolean {
  const g = presenter?.gender;
  return !g || g === 'neutral' || voice.gender === 'neutral' || voice.gender === g;
}
