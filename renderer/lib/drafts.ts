// Drafts as the bridge keeps them: a VideoDocument plus its id and dates. Every draft the
// bridge hands over is read through `migrateDocument` (one written before scenes comes back as
// one scene), and every save sends the document shape; nothing here restates its fields.
import type { BridgeInput, DraftSummary } from '../../shared/bridge/index.js';
import { documentExcerpt, migrateDocument, VideoDocument } from '../../shared/contract/document.js';

export type DraftRecord = VideoDocument & { id: string; createdAt: string; updatedAt: string };

export function readDraft(raw: unknown): DraftRecord {
  return migrateDocument(raw) as DraftRecord;
}

/** What drafts.save takes: the document, with the id of the draft it replaces (none: a new one). */
export function draftInput(doc: VideoDocument, id?: string | null): BridgeInput<'drafts.save'> {
  return { ...(id ? { id } : {}), ...documentOf(doc) } as unknown as BridgeInput<'drafts.save'>;
}

/** The document's own fields of a draft, an editor state or a job's copy (no id, no dates). */
export function documentOf(d: VideoDocument): VideoDocument {
  return Object.fromEntries(Object.keys(VideoDocument.shape).map((k) => [k, d[k as keyof VideoDocument]])) as VideoDocument;
}

export function draftSummary(d: DraftRecord): DraftSummary {
  return { id: d.id, name: d.name, excerpt: documentExcerpt(d), updatedAt: d.updatedAt };
}
