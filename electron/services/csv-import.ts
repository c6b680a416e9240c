// CSV import (`jobs.importCsv`): the rows of the file (csv.ts reads and checks them) become
// drafts or submitted jobs. While any row is bad nothing is created: the report names every bad
// row by its line, so the file is fixed and imported again whole. A row the API then refuses is
// reported on its own and never stops the rest.
import type { BridgeParsedInput, CsvRowReport } from '../../shared/bridge/index.js';
import { excerptOf, requestText, type RenderRequest } from '../../shared/contract/index.js';
import { readCsvRequests, type CsvCatalog } from './csv.js';
import { toBridgeError } from './errors.js';

export interface CsvImportTargets {
  /** Template and voice ids rows are checked against; null = not known (no check). */
  catalog: CsvCatalog | null;
  saveDraft(request: RenderRequest, name: string): Promise<{ id: string }>;
  submit(request: RenderRequest): Promise<{ job: { id: string } | null }>;
}


export async function importCsv({ csv, mode }: BridgeParsedInput<'jobs.importCsv'>, to: CsvImportTargets): Promise<{ rows: CsvRowReport[] }> {
  const read = readCsvRequests(csv, to.catalog ?? undefined);
  if (read.some((r) => !r.request)) return { rows: read.map((r) => ({ row: r.row, ok: false, draftId: null, jobId: null, errors: r.errors })) };
  const rows: CsvRowReport[] = [];
  for (const r of read) {
    if (!r.request) continue;
    try {
      if (mode === 'drafts') {
        const d = await to.saveDraft(r.request, excerptOf(requestText(r.request), 60));
        rows.push({ row: r.row, ok: true, draftId: d.id, jobId: null, errors: [] });
      } else {
        const s = await to.submit(r.request);
        rows.push({ row: r.row, ok: true, draftId: null, jobId: s.job?.id ?? null, errors: [] });
      }
    } catch (e) {
      const err = toBridgeError(e);
      rows.push({ row: r.row, ok: false, draftId: null, jobId: null, errors: err.details ?? [{ path: '(row)', message: err.message }] });
    }
  }
  return { rows };
}
