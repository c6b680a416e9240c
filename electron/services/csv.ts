// CSV import: one render request per row from the columns text, template, voice and optional
// aspect, x, y, scale. Each row is checked with the contract's RenderRequest schema and reported
// on its own, with errors named by column.
import { RenderRequest, issuesToDetails } from '../../shared/contract/index.js';

/** RFC 4180 parsing: quoted fields, doubled quotes, CRLF or LF, a BOM. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

const COLUMNS: Record<string, 'text' | 'template' | 'voice' | 'aspect' | 'x' | 'y' | 'scale'> = {
  text: 'text', script: 'text',
  template: 'template', templateid: 'template',
  voice: 'voice', voiceid: 'voice',
  aspect: 'aspect', aspectratio: 'aspect',
  x: 'x', y: 'y', scale: 'scale',
};
const PATH_TO_COLUMN: Record<string, string> = {
  text: 'text', templateId: 'template', voiceId: 'voice',
  'params.aspectRatio': 'aspect', 'params.avatar.x': 'x', 'params.avatar.y': 'y', 'params.avatar.scale': 'scale',
};

export interface CsvRow {
  row: number;
  request: RenderRequest | null;
  errors: { path: string; message: string }[];
}

export interface CsvCatalog {
  templateIds: Set<string>;
  voiceIds: Set<string>;
}

/** Rows numbered from 1 after the header; a header problem is reported as row 0. */
export function readCsvRequests(text: string, catalog?: CsvCatalog): CsvRow[] {
  const rows = parseCsv(text);
  const header = rows.shift();
  if (!header) return [{ row: 0, request: null, errors: [{ path: '(header)', message: 'the file is empty; expected a header row with text, template, voice' }] }];
  const cols = header.map((h) => COLUMNS[h.trim().toLowerCase().replace(/[\s_-]/g, '')] ?? null);
  const unknown = header.filter((_, i) => cols[i] === null);
  const missing = (['text', 'template', 'voice'] as const).filter((c) => !cols.includes(c));
  if (missing.length || unknown.length) {
    return [
      {
        row: 0,
        request: null,
        errors: [
          ...missing.map((m) => ({ path: m, message: 'column is missing from the header' })),
          ...unknown.map((u) => ({ path: u, message: 'unknown column (expected text, template, voice, aspect, x, y, scale)' })),
        ],
      },
    ];
  }
  return rows.map((cells, i) => {
    const v: Partial<Record<string, string>> = {};
    cols.forEach((c, j) => (v[c!] = cells[j]?.trim() ?? ''));
    const errors: { path: string; message: string }[] = [];
    const num = (c: 'x' | 'y' | 'scale'): number | undefined => {
      const s = v[c];
      if (!s) return undefined;
      const n = Number(s);
      if (!Number.isFinite(n)) errors.push({ path: c, message: `must be a number, got "${s}"` });
      return n;
    };
    const avatar = { x: num('x'), y: num('y'), scale: num('scale') };
    const params: Record<string, unknown> = {};
    if (v.aspect) params.aspectRatio = v.aspect;
    if (Object.values(avatar).some((n) => n !== undefined)) params.avatar = Object.fromEntries(Object.entries(avatar).filter(([, n]) => n !== undefined));
    const candidate = { text: v.text ?? '', templateId: v.template ?? '', voiceId: v.voice ?? '', ...(Object.keys(params).length ? { params } : {}) };
    if (errors.length) return { row: i + 1, request: null, errors };
    const parsed = RenderRequest.safeParse(candidate);
    if (!parsed.success) {
      return { row: i + 1, request: null, errors: issuesToDetails(parsed.error).map((d) => ({ path: PATH_TO_COLUMN[d.path] ?? d.path, message: d.message })) };
    }
    if (catalog && catalog.templateIds.size && !catalog.templateIds.has(parsed.data.templateId)) errors.push({ path: 'template', message: `unknown template "${parsed.data.templateId}"` });
    if (catalog && catalog.voiceIds.size && !/^[0-9]+$/.test(parsed.data.voiceId) && !catalog.voiceIds.has(parsed.data.voiceId)) errors.push({ path: 'voice', message: `unknown voice "${parsed.data.voiceId}"` });
    return { row: i + 1, request: errors.length ? null : parsed.data, errors };
  });
}
