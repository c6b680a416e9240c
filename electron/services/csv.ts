// CSV import: one render request per row from the columns text, template, voice and optional
// aspect, x, y, scale. Each row is checked with the rules a submit meets — the contract's
// RenderRequest schema, the catalog's ids and the template's aspect ratios — and reported by its
// line in the file, with errors named by column.
import { RenderRequest, issuesToDetails, type Template } from '../../shared/contract/index.js';
import { fillParams } from '../../shared/scene/catalog.js';

/** A row of the file and the line it starts on (from 1; a quoted line break does not start a row). */
export interface CsvLine {
  line: number;
  cells: string[];
}

/** RFC 4180 parsing: quoted fields, doubled quotes, CRLF, LF or a lone CR, a BOM; blank rows left out. */
export function parseCsvLines(text: string): CsvLine[] {
  const rows: CsvLine[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
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
      if (c === '\r' && text[i + 1] === '\n') {
        i++;
        line++;
      }
      row.push(field);
      rows.push({ line: start, cells: row });
      start = line;
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push({ line: start, cells: row });
  }
  return rows.filter((r) => r.cells.some((f) => f.trim() !== ''));
}

/** The rows' cells (see parseCsvLines). */
export function parseCsv(text: string): string[][] {
  return parseCsvLines(text).map((r) => r.cells);
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
  templates: Pick<Template, 'id' | 'aspectRatios' | 'defaults'>[];
  voiceIds: Set<string>;
}

/** `row` is the line of the file a row starts on; a header problem is reported on line 1. */
export function readCsvRequests(text: string, catalog?: CsvCatalog): CsvRow[] {
  const lines = parseCsvLines(text);
  const header = lines.shift()?.cells;
  if (!header) return [{ row: 1, request: null, errors: [{ path: '(header)', message: 'the file is empty; expected a header row with text, template, voice' }] }];
  const cols = header.map((h) => COLUMNS[h.trim().toLowerCase().replace(/[\s_-]/g, '')] ?? null);
  const unknown = header.filter((_, i) => cols[i] === null);
  const missing = (['text', 'template', 'voice'] as const).filter((c) => !cols.includes(c));
  if (missing.length || unknown.length) {
    return [
      {
        row: 1,
        request: null,
        errors: [
          ...missing.map((m) => ({ path: m, message: 'column is missing from the header' })),
          ...unknown.map((u) => ({ path: u, message: 'unknown column (expected text, template, voice, aspect, x, y, scale)' })),
        ],
      },
    ];
  }
  return lines.map(({ line, cells }) => {
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
    if (errors.length) return { row: line, request: null, errors };
    const parsed = RenderRequest.safeParse(candidate);
    if (!parsed.success) {
      return { row: line, request: null, errors: issuesToDetails(parsed.error).map((d) => ({ path: PATH_TO_COLUMN[d.path] ?? d.path, message: d.message })) };
    }
    const req = parsed.data;
    const template = catalog?.templates.find((t) => t.id === req.templateId);
    if (catalog?.templates.length && !template) errors.push({ path: 'template', message: `unknown template "${req.templateId}"` });
    // As the render API checks it: the aspect given, or the template's own.
    if (template && !template.aspectRatios.includes(fillParams(template.id, req.params, [template]).aspectRatio)) {
      errors.push({ path: 'aspect', message: `the template "${template.id}" supports ${template.aspectRatios.join(', ')}` });
    }
    if (catalog && catalog.voiceIds.size && !/^[0-9]+$/.test(req.voiceId) && !catalog.voiceIds.has(req.voiceId)) errors.push({ path: 'voice', message: `unknown voice "${req.voiceId}"` });
    return { row: line, request: errors.length ? null : req, errors };
  });
}
