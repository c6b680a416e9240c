// Numeric x / y / scale of the placement the canvas edits (the selected scene's own, else the
// video's), held to the contract's ranges. During a drag the fields follow the
// live value through the DOM (no React render); typing commits on Enter or when leaving.
import { useEffect, useRef, useState } from 'react';
import { AVATAR_RANGES, type Avatar } from '../../shared/contract/index.js';
import { clampAvatar } from '../lib/placement.js';
import { scenePlacement } from '../lib/scenes.js';
import { selectedScene } from '../store/document.js';

import { livePlacement } from '../store/placement.js';
import { useEditor, useStudio } from '../store/index.js';

const FIELDS = [
  { key: 'x', label: 'X', hint: 'centre, 0 = left edge, 1 = right edge' },
  { key: 'y', label: 'Y', hint: 'centre, 0 = top edge, 1 = bottom edge' },
  { key: 'scale', label: 'Scale', hint: 'height as a share of the frame' },
] as const;

export function PlacementFields() {
  const avatar = useStudio((s) => scenePlacement(s.document.params, selectedScene(s)));
  const sceneId = useStudio((s) => s.selectedSceneId);
  const resetPlacement = useStudio((s) => s.resetPlacement);
  const fieldErrors = useEditor((s) => s.fieldErrors);
  const sceneErrors = useEditor((s) => s.sceneErrors[sceneId]);
  return (
    <div className="placement">
      {FIELDS.map((f) => (
        <NumberField key={f.key} name={f.key} label={f.label} hint={f.hint} avatar={avatar} error={sceneErrors?.[`avatar.${f.key}`] ?? fieldErrors[`params.avatar.${f.key}`]} />
      ))}
      <button type="button" className="btn" onClick={resetPlacement} title="Put the presenter back where the template places it">
        Reset
      </button>
    </div>
  );
}

function NumberField({ name, label, hint, avatar, error }: { name: keyof Avatar; label: string; hint: string; avatar: Avatar; error: string | undefined }) {
  const range = AVATAR_RANGES[name];
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(String(avatar[name]));
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => setText(String(avatar[name])), [avatar, name]);
  useEffect(
    () =>
      livePlacement.subscribe((s) => {
        if (s.avatar && input.current && document.activeElement !== input.current) input.current.value = String(s.avatar[name]);
      }),
    [name],
  );
  const commit = () => {
    const v = Number(text.replace(',', '.'));
    if (text.trim() === '' || !Number.isFinite(v)) {
      setNote(`Enter a number from ${range.min} to ${range.max}.`);
      setText(String(avatar[name]));
      return;
    }
    const next = clampAvatar({ ...avatar, [name]: v });
    setNote(next[name] !== v ? `Held to ${range.min}–${range.max}.` : null);
    setText(String(next[name]));
    if (next[name] !== avatar[name]) useStudio.getState().setAvatar(next);
  };
  const id = `placement-${name}`;
  return (
    <label className="field compact" htmlFor={id} title={hint}>
      <span className="label">{label}</span>
      <input
        id={id}
        ref={input}
        className={`input num${error ? ' invalid' : ''}`}
        type="number"
        inputMode="decimal"
        min={range.min}
        max={range.max}
        step={0.01}
        value={text}
        aria-describedby={note || error ? `${id}-note` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const v = Number(e.target.value);
          // Valid, in-range values apply at once (spinner, typing); others wait for Enter or blur.
          if (e.target.value.trim() !== '' && Number.isFinite(v) && v >= range.min && v <= range.max && v !== avatar[name]) {
            setNote(null);
            useStudio.getState().setAvatar({ ...avatar, [name]: v });
          }
        }}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
      {(note || error) && (
        <span className="field-note" id={`${id}-note`} role="status">
          {error ? `${label} ${error}.` : note}
        </span>
      )}
    </label>
  );
}
