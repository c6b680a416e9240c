// Who may speak: the built-in cast (resources/presenters.json) and each user's own presenters
// (a store of them plugs in as UserPresenters). GET /api/presenters lists both; a render's
// presenterId is resolved here, so a presenter of another user is as unknown as a made-up id.
import type { Presenter } from '../../shared/contract/index.js';
import { CAST } from '../../shared/scene/presenters.js';

/** A user's own presenters (photo presenters): implemented by their store. */
export interface UserPresenters {
  /** The user's presenters, oldest first. */
  list(userId: string): Promise<Presenter[]>;
  /** One of the user's presenters; null when unknown or another user's. */
  get(id: string, userId: string): Promise<Presenter | null>;
}

export const presenterThumbnailUrl = (id: string): string => `/api/presenters/${encodeURIComponent(id)}/thumbnail.png`;

/** The built-in cast as the contract shows it. */
export function builtInPresenters(): Presenter[] {
  return CAST.map((p) => ({ id: p.id, name: p.name, kind: 'vector', builtIn: true, thumbnailUrl: presenterThumbnailUrl(p.id), gender: p.gender }));
}

export class PresenterRegistry {
  private readonly builtIns: Presenter[];
  private readonly byId: Map<string, Presenter>;

  constructor(private users: UserPresenters | null = null, builtIns: Presenter[] = builtInPresenters()) {
    this.builtIns = builtIns;
    this.byId = new Map(builtIns.map((p) => [p.id, p]));
  }

  /** Plugs in the store of users' own presenters. */
  setUserPresenters(users: UserPresenters): void {
    this.users = users;
  }

  /** A built-in presenter by id, or undefined. */
  builtIn(id: string): Presenter | undefined {
    return this.byId.get(id);
  }

  /** The built-ins, then the user's own. */
  async list(userId: string): Promise<Presenter[]> {
    return [...this.builtIns, ...((await this.users?.list(userId)) ?? [])];
  }

  /** The presenter a request names, for this user; null when unknown or another user's. */
  async resolve(id: string, userId: string): Promise<Presenter | null> {
    return this.byId.get(id) ?? (await this.users?.get(id, userId)) ?? null;
  }
}
