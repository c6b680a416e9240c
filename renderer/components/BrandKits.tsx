// Brand kits: named looks (logo from the media library, its corner and size, accent colour,
// caption style, font) kept by the app; one click applies a kit to the video (the draft then
// carries the resolved `brand`, and so does every job made from it). Kits export and import as
// one file. The editor checks with the bridge's own schema, says what is wrong in words and
// keeps what was typed.
import { useEffect, useState } from 'react';
import {
  BRAND_KIT_DEFAULT_LOGO_SIZE, BrandKitInput, kitBrand, kitCards, type BrandKit, type BrandKitInput as KitInput,
} from '../../shared/bridge/index.js';
import { CAPTION_STYLES, issuesToDetails, LOGO_POSITIONS, type Asset, type CaptionStyle, type LogoPosition } from '../../shared/contract/index.js';
import { BRAND_FONTS } from '../../shared/scene/fonts.js';
import { call, describeError, toBridgeError } from '../lib/bridge.js';
import { useSettings, useStudio, useUi } from '../store/index.js';
import { ErrorNote } from './ErrorNote.js';

const POSITION_LABEL: Record<LogoPosition, string> = { 'top-left': 'Top left', 'top-right': 'Top right', 'bottom-left': 'Bottom left', 'bottom-right': 'Bottom right' };
const STYLE_LABEL: Record<CaptionStyle, string> = { box: 'Box in the accent colour', outline: 'Outline in the accent colour', highlight: 'Spoken word highlighted' };
const FIELD_LABEL: Record<string, string> = {
  name: 'Name', logo: 'Logo', 'logo.assetId': 'Logo', 'logo.size': 'Logo size', 'logo.position': 'Logo corner', accentColor: 'Accent colour',
  captionStyle: 'Caption style', font: 'Font', intro: 'Title card line', outro: 'End card call to action',
};

/** The error keys each editor field answers for. */
const ERROR_KEYS: Partial<Record<keyof Form, string[]>> = {
  name: ['name'], logoAssetId: ['logo', 'logo.assetId'], position: ['logo.position'], sizePercent: ['logo.size'], accentColor: ['accentColor'],
  captionStyle: ['captionStyle'], font: ['font'], intro: ['intro'], outro: ['outro'],
};

/** What the editor holds: text as typed (a size in percent, a colour), turned into a kit on save. */
interface Form {
  id?: string;
  name: string;
  logoAssetId: string;
  position: LogoPosition;
  sizePercent: string;
  accentColor: string;
  captionStyle: CaptionStyle | '';
  /** A bundled font's id, `asset:<id>`, or '' (the template's). */
  font: string;
  intro: string;
  outro: string;
}

const emptyForm = (): Form => ({ name: '', logoAssetId: '', position: 'top-right', sizePercent: String(BRAND_KIT_DEFAULT_LOGO_SIZE * 100), accentColor: '', captionStyle: '', font: '', intro: '', outro: '' });

function formOf(kit: BrandKit): Form {
  return {
    id: kit.id, name: kit.name, logoAssetId: kit.logo?.assetId ?? '', position: kit.logo?.position ?? 'top-right',
    sizePercent: String(Math.round((kit.logo?.size ?? BRAND_KIT_DEFAULT_LOGO_SIZE) * 1000) / 10), accentColor: kit.accentColor ?? '',
    captionStyle: kit.captionStyle ?? '', font: kit.font ? (kit.font.kind === 'bundled' ? kit.font.id : `asset:${kit.font.assetId}`) : '',
    intro: kit.intro ?? '', outro: kit.outro ?? '',
  };
}

function kitInput(f: Form, images: Asset[], fonts: Asset[]): unknown {
  const logo = f.logoAssetId ? images.find((a) => a.id === f.logoAssetId) : undefined;
  const fontAsset = f.font.startsWith('asset:') ? fonts.find((a) => `asset:${a.id}` === f.font) : undefined;
  const size = f.sizePercent.trim() === '' ? NaN : Number(f.sizePercent) / 100;
  return {
    ...(f.id ? { id: f.id } : {}),
    name: f.name,
    logo: f.logoAssetId ? { assetId: f.logoAssetId, name: logo?.name ?? '', position: f.position, size } : null,
    accentColor: f.accentColor.trim() === '' ? null : f.accentColor.trim(),
    captionStyle: f.captionStyle || null,
    font: !f.font ? null : fontAsset ? { kind: 'asset', assetId: fontAsset.id, name: fontAsset.name } : { kind: 'bundled', id: f.font },
    intro: f.intro.trim() === '' ? null : f.intro,
    outro: f.outro.trim() === '' ? null : f.outro,
  };
}

/** A size the schema refused is said in percent, as the editor shows it. */
function inWords(path: string, message: string): string {
  const field = FIELD_LABEL[path] ?? path;
  if (path === 'logo.size') return `${field} must be between 5 % and 30 % of the frame's width.`;
  return `${field} ${message}.`;
}

function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function BrandKits() {
  const supported = useSettings((s) => s.capabilities?.brand !== false);
  const applied = useStudio((s) => s.document.brand);
  const applyBrand = useStudio((s) => s.applyBrand);
  const [kits, setKits] = useState<BrandKit[]>([]);
  const [chosen, setChosen] = useState('');
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const [images, setImages] = useState<Asset[]>([]);
  const [fonts, setFonts] = useState<Asset[]>([]);
  const [appliedName, setAppliedName] = useState<string | null>(null);

  const load = async () => {
    try {
      const list = await call('brandKits.list', undefined);
      setKits(list);
      setChosen((c) => (c && list.some((k) => k.id === c) ? c : (list[0]?.id ?? '')));
    } catch (e) {
      setError(`Brand kits could not be read: ${describeError(e)}`);
    }
  };
  useEffect(() => void load(), []);
  const loadLibrary = async () => {
    try {
      const [i, f] = await Promise.all([call('assets.list', { kind: 'image', limit: 100 }), call('assets.list', { kind: 'font', limit: 100 })]);
      setImages(i.assets);
      setFonts(f.assets);
    } catch (e) {
      setError(`The media library could not be read: ${describeError(e)}`);
    }
  };
  const edit = (f: Form) => {
    setForm(f);
    setErrors({});
    setError(null);
    void loadLibrary();
  };
  const kit = kits.find((k) => k.id === chosen);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!form) return;
    setError(null);
    const parsed = BrandKitInput.safeParse(kitInput(form, images, fonts));
    const show = (details: { path: string; message: string }[]) => {
      setErrors(Object.fromEntries(details.map((d) => [d.path.split('.').slice(0, 2).join('.'), inWords(d.path, d.message)])));
      setError('Fix the marked fields to save the kit.');
    };
    if (!parsed.success) return show(issuesToDetails(parsed.error));
    try {
      const saved = await call('brandKits.save', parsed.data as KitInput);
      setForm(null);
      setErrors({});
      await load();
      setChosen(saved.id);
    } catch (err) {
      const b = toBridgeError(err);
      if (b.details?.length) show(b.details);
      else setError(describeError(b));
    }
  };
  const apply = () => {
    if (!kit) return;
    applyBrand(kitBrand(kit), kitCards(kit));
    setAppliedName(kit.name);
    useUi.getState().notify({ kind: 'info', text: `Brand kit "${kit.name}" applied to this video.` });
  };
  const exportKit = async () => {
    if (!kit) return;
    try {
      const f = await call('brandKits.export', { id: kit.id });
      download(f.fileName, f.text);
    } catch (e) {
      setError(`The kit could not be exported: ${describeError(e)}`);
    }
  };
  const importKit = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      const r = await call('brandKits.import', { text: await file.text() });
      setNotes([`Imported "${r.kit.name}".`, ...r.notes]);
      await load();
      setChosen(r.kit.id);
    } catch (e) {
      setError(`The kit could not be imported: ${describeError(e)}`);
    }
  };
  const remove = async () => {
    if (!kit) return;
    try {
      await call('brandKits.remove', { id: kit.id });
      await load();
    } catch (e) {
      setError(describeError(e));
    }
  };
  /** A field edited: its value as typed, and its error gone until the next save checks it again. */
  const set = (patch: Partial<Form>) => {
    setForm((f) => (f ? { ...f, ...patch } : f));
    const cleared = Object.keys(patch).flatMap((k) => ERROR_KEYS[k as keyof Form] ?? []);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !cleared.includes(k))));
  };
  const fieldClass = (k: string) => `input${errors[k] ? ' invalid' : ''}`;

  return (
    <section className="panel brand-kits" aria-labelledby="brand-heading">
      <div className="panel-head">
        <h2 id="brand-heading">Brand kit</h2>
        {applied && <span className="chip" data-testid="brand-applied">{appliedName ? `${appliedName} applied` : 'Brand applied'}</span>}
      </div>
      {!supported && <p className="muted small">This render API does not take brand kits: videos render in the template's own look.</p>}
      <ErrorNote message={error} />
      {notes.map((n) => (
        <p key={n} className="muted small" role="status">{n}</p>
      ))}
      {!form && (
        <div className="brand-row">
          <select className="input" aria-label="Brand kits" value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={!kits.length}>
            {!kits.length && <option value="">No kits yet</option>}
            {kits.map((k) => (
              <option key={k.id} value={k.id}>{k.name}</option>
            ))}
          </select>
          <button type="button" className="btn primary" disabled={!kit || !supported} onClick={apply}>Apply to this video</button>
          {applied && (
            <button type="button" className="btn" onClick={() => (applyBrand(undefined, { intro: null, outro: null }), setAppliedName(null))}>No brand</button>
          )}
          <button type="button" className="btn" onClick={() => edit(emptyForm())}>New kit</button>
          <button type="button" className="btn" disabled={!kit} onClick={() => kit && edit(formOf(kit))}>Edit</button>
          <button type="button" className="btn" disabled={!kit} onClick={() => void exportKit()}>Export</button>
          <label className="btn">
            Import
            <input type="file" accept=".json,application/json" hidden onChange={(e) => void importKit(e.target.files?.[0])} aria-label="Import a brand kit file" />
          </label>
          <button type="button" className="btn danger" disabled={!kit} onClick={() => void remove()}>Delete</button>
        </div>
      )}
      {form && (
        <form className="brand-editor" onSubmit={(e) => void save(e)} aria-label="Brand kit editor" noValidate>
          <div className="form-grid">
            <label className="field">
              <span className="label">Name</span>
              <input className={fieldClass('name')} value={form.name} onChange={(e) => set({ name: e.target.value })} placeholder="Acme" />
              {errors.name && <span className="field-note">{errors.name}</span>}
            </label>
            <label className="field">
              <span className="label">Logo (a picture from the media library)</span>
              <select className={fieldClass('logo')} value={form.logoAssetId} onChange={(e) => set({ logoAssetId: e.target.value })}>
                <option value="">No logo</option>
                {images.map((a) => (
                  <option key={a.id} value={a.id}>{a.name}</option>
                ))}
              </select>
              {(errors.logo || errors['logo.assetId']) && <span className="field-note">{errors.logo ?? errors['logo.assetId']}</span>}
            </label>
            <label className="field">
              <span className="label">Logo corner</span>
              <select className="input" value={form.position} onChange={(e) => set({ position: e.target.value as LogoPosition })} disabled={!form.logoAssetId}>
                {LOGO_POSITIONS.map((p) => (
                  <option key={p} value={p}>{POSITION_LABEL[p]}</option>
                ))}
              </select>
            </label>
            <label className="field">
              <span className="label">Logo size (% of the width)</span>
              <input className={fieldClass('logo.size')} inputMode="decimal" value={form.sizePercent} onChange={(e) => set({ sizePercent: e.target.value })} disabled={!form.logoAssetId} />
              {errors['logo.size'] && <span className="field-note">{errors['logo.size']}</span>}
            </label>
            <label className="field">
              <span className="label">Accent colour (#RRGGBB)</span>
              <span className="brand-colour">
                <input className={fieldClass('accentColor')} value={form.accentColor} onChange={(e) => set({ accentColor: e.target.value })} placeholder="#FFD400" />
                <input type="color" aria-label="Pick the accent colour" value={/^#[0-9a-f]{6}$/i.test(form.accentColor) ? form.accentColor : '#ffd400'} onChange={(e) => set({ accentColor: e.target.value })} />
              </span>
              {errors.accentColor && <span className="field-note">{errors.accentColor}</span>}
            </label>
            <label className="field">
              <span className="label">Caption style</span>
              <select className="input" value={form.captionStyle} onChange={(e) => set({ captionStyle: e.target.value as CaptionStyle | '' })}>
                <option value="">The template's</option>
                {CAPTION_STYLES.map((s) => (
                  <option key={s} value={s}>{STYLE_LABEL[s]}</option>
                ))}
              </select>
            </label>
            <label className="field">
              <span className="label">Font</span>
              <select className={fieldClass('font')} value={form.font} onChange={(e) => set({ font: e.target.value })}>
                <option value="">The template's</option>
                {BRAND_FONTS.map((f) => (
                  <option key={f.id} value={f.id}>{f.name}</option>
                ))}
                {fonts.map((a) => (
                  <option key={a.id} value={`asset:${a.id}`}>{a.name} (your font)</option>
                ))}
              </select>
              {errors.font && <span className="field-note">{errors.font}</span>}
            </label>
          </div>
          <div className="form-grid">
            <label className="field">
              <span className="label">Title card line (optional)</span>
              <input className={fieldClass('intro')} value={form.intro} onChange={(e) => set({ intro: e.target.value })} placeholder="Acme quarterly update" />
              {errors.intro && <span className="field-note">{errors.intro}</span>}
            </label>
            <label className="field">
              <span className="label">End card call to action (optional)</span>
              <input className={fieldClass('outro')} value={form.outro} onChange={(e) => set({ outro: e.target.value })} placeholder="Visit acme.example" />
              {errors.outro && <span className="field-note">{errors.outro}</span>}
            </label>
          </div>
          <p className="muted small">Cards become the video's first and last scenes (the logo, the line said and shown in the brand's captions); edit them like any scene.</p>
          <p className="muted small">Fonts you bring (TTF, OTF, WOFF2) and logos (PNG with transparency, JPEG, WebP) are added in the media library below.</p>
          <div className="brand-row">
            <button type="submit" className="btn primary">Save kit</button>
            <button type="button" className="btn" onClick={() => (setForm(null), setErrors({}), setError(null))}>Cancel</button>
          </div>
        </form>
      )}
    </section>
  );
}
