// Batch creation from a CSV (text, template, voice, optional placement): into drafts or
// straight into jobs, with a report of what was wrong in each row.
import { useState } from 'react';
import type { CsvRowReport } from '../../shared/bridge/index.js';
import { call, describeError } from '../lib/bridge.js';

import { Dialog } from './Dialog.js';
import { ErrorNote } from './ErrorNote.js';
import { useDrafts, useJobs } from '../store/index.js';

const EXAMPLE = 'text,template,voice,aspect,x,y,scale\n"Welcome to the quarterly update.",newsroom,en-US-Ava,16:9,0.72,0.58,0.6\n';

export function CsvImport({ onClose }: { onClose(): void }) {
  const [csv, setCsv] = useState('');
  const [mode, setMode] = useState<'drafts' | 'jobs'>('drafts');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [rows, setRows] = useState<CsvRowReport[] | null>(null);

  const run = async () => {
    setBusy(true);
    setError(null);
    setRows(null); // a report of an earlier import would read as this one's
    try {
      const r = await call('jobs.importCsv', { csv, mode });
      setRows(r.rows);
      if (mode === 'drafts') void useDrafts.getState().load();
      else void useJobs.getState().load();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  const ok = rows?.filter((r) => r.ok).length ?? 0;
  const bad = rows?.filter((r) => !r.ok && r.errors.length).length ?? 0;
  // A file with a bad row is not imported at all (the bridge checks every row first).
  const held = rows?.some((r) => !r.ok && r.errors.length) && ok === 0;
  return (
    <Dialog title="Import scripts from CSV" onClose={onClose} wide>
      <p className="muted small">
        One script per row, with a header. Columns: <code>text</code>, <code>template</code>, <code>voice</code>, and optionally <code>aspect</code>, <code>x</code>,{' '}
        <code>y</code>, <code>scale</code>.
      </p>
      <label className="field">
        <span className="label">CSV file</span>
        <input
          type="file"
          accept=".csv,text/csv"
          aria-label="CSV file"
          onChange={async (e) => {
            const f = e.target.files?.[0];
            if (f) setCsv(await f.text());
          }}
        />
      </label>
      <label className="field">
        <span className="label">…or paste it</span>
        <textarea className="input mono" rows={6} value={csv} placeholder={EXAMPLE} aria-label="CSV text" onChange={(e) => setCsv(e.target.value)} />
      </label>
      <fieldset className="radio-row">
        <legend className="label">Import into</legend>
        <label>
          <input type="radio" name="csv-mode" checked={mode === 'drafts'} onChange={() => setMode('drafts')} /> Drafts (review first)
        </label>
        <label>
          <input type="radio" name="csv-mode" checked={mode === 'jobs'} onChange={() => setMode('jobs')} /> Jobs (render now)
        </label>
      </fieldset>
      <ErrorNote message={error} />
      <div className="dialog-actions">
        <button type="button" className="btn ghost" onClick={onClose}>
          Close
        </button>
        <button type="button" className="btn primary" disabled={busy || !csv.trim()} onClick={() => void run()}>
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
      {rows && (
        <div className="csv-report" data-testid="csv-report">
          <p role="status">
            {held
              ? `Nothing imported: ${bad} row${bad === 1 ? ' has' : 's have'} problems. Fix ${bad === 1 ? 'it' : 'them'} and import the file again.`
              : `${ok} row${ok === 1 ? '' : 's'} imported${bad ? `, ${bad} refused by the render API` : ''}.`}
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.row} className={r.errors.length ? 'bad' : 'ok'} data-testid={`csv-row-${r.row}`}>
                  <td>{r.row}</td>
                  <td>
                    {r.ok ? (
                      <span>✓ {r.jobId ? `job ${r.jobId}` : 'draft created'}</span>
                    ) : !r.errors.length ? (
                      <span className="muted">No problems</span>
                    ) : (
                      <ul>
                        {r.errors.map((e, i) => (
                          <li key={i}>
                            <strong>{e.path}</strong>: {e.message}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Dialog>
  );
}
