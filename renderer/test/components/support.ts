// Shared set-up of the component tests (React Testing Library on happy-dom, through vitest):
// the real template catalog, and `window.studio`. The bridge is a double here because its
// real ends (Electron IPC, the web shell) do not run in happy-dom; the components and their
// stores under test are real. Playwright (tests/ui) covers the same screens end to end.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import catalog from '../../../resources/templates.json' with { type: 'json' };
import type { BridgeMethod, StudioApi } from '../../../shared/bridge/index.js';
import { Template } from '../../../shared/contract/index.js';
import { blankDocument } from '../../store/document.js';
import { useCatalogs, useStudio } from '../../store/index.js';

/** The shipped templates, checked against the contract. */
export const TEMPLATES: Template[] = Template.array().parse(catalog.templates.map((t) => ({ ...t, thumbnailUrl: '' })));

export type Calls = { method: BridgeMethod; input: unknown }[];

/** Installs a `window.studio` that records every call and answers from `answers` (or rejects as unsupported). */
export function installBridge(answers: Partial<Record<BridgeMethod, (input: never) => unknown>> = {}): Calls {
  const calls: Calls = [];
  const api: StudioApi = {
    upload: () => Promise.reject({ code: 'unsupported', message: 'upload is not answered in this test' }),
    call: (async (method: BridgeMethod, input: unknown) => {
      calls.push({ method, input });
      const answer = answers[method] as ((i: unknown) => unknown) | undefined;
      if (!answer) throw { code: 'unsupported', message: `${method} is not answered in this test` };
      return answer(input);
    }) as StudioApi['call'],
    subscribe: () => () => {},
  };
  (window as unknown as { studio: StudioApi }).studio = api;
  return calls;
}

/** Catalog loaded and a blank draft on the given template, as after the app starts (no undo history, nothing unsaved). */
export function startEditor(templateId = TEMPLATES[0]!.id): void {
  useCatalogs.setState({ templates: TEMPLATES, voices: [], loaded: true, error: null, fromCache: false });
  const t = TEMPLATES.find((x) => x.id === templateId)!;
  const s = useStudio.getState();
  s.loadDocument({ ...blankDocument(s), templateId: t.id, params: structuredClone(t.defaults) }, null);
  useStudio.setState({ settings: { ...useStudio.getState().settings, capabilities: null } });
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});
