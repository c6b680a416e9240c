// Caps on concurrent long-lived streams (server-sent events): per user and in total. Each open
// stream holds a slot until it is released (the connection closed).
export type StreamSlot = { ok: true; release(): void } | { ok: false; reason: 'user' | 'total'; open: number };

export class StreamCaps {
  private readonly perUserOpen = new Map<string, number>();
  private total = 0;

  constructor(
    readonly perUser: number,
    readonly max: number,
  ) {}

  get size(): number {
    return this.total;
  }

  open(userId: string): StreamSlot {
    const mine = this.perUserOpen.get(userId) ?? 0;
    if (mine >= this.perUser) return { ok: false, reason: 'user', open: mine };
    if (this.total >= this.max) return { ok: false, reason: 'total', open: this.total };
    this.perUserOpen.set(userId, mine + 1);
    this.total++;
    let held = true;
    return {
      ok: true,
      release: () => {
        if (!held) return;
        held = false;
        this.total--;
        const n = (this.perUserOpen.get(userId) ?? 1) - 1;
        if (n > 0) this.perUserOpen.set(userId, n);
        else this.perUserOpen.delete(userId);
      },
    };
  }
}
