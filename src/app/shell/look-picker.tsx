import './look-picker.css';
import { useState } from 'react';
import type { KidsStyle } from '@/contract/residents';
import { useResidentDetails } from '@/data/hooks';
import { useKidsStyle } from '@/data/hooks/use-kids-style';
import { themeNames, updateSettings, useSettings, type ThemeName } from '@/data/settings-store';
import { KIDS_STYLE_NAMES } from '@/data/kids-style';
import { updateKidsStyle } from '@/features/account/actions/update-kids-style';

const styleLabels: Record<KidsStyle, { name: string; text: string }> = {
  fun_style: { name: 'Fun', text: 'Bright and light' },
  gaming_style: { name: 'Gaming', text: 'Dark with neon colours' },
};

const shapeLabels: Record<ThemeName, string> = { fun: 'Rounded', metro: 'Tiles', none: 'Plain' };

/**
 * Menu → Look: SPEC §3's two theme settings (docs/decisions.md "Themes (issue 11)").
 * Style is the account's kids_app theme (fun_style, gaming_style): it changes the whole app at once
 * and is saved to the account through the outbox, so it follows the young person to other devices.
 * Shapes is the settings theme (fun, metro, none), kept on this device.
 */
export function LookPicker() {
  const settings = useSettings();
  const style = useKidsStyle();
  const doc = useResidentDetails().data;
  // The radio shows the choice at once; the record (and with it the whole app) follows a moment later.
  const [choice, setChoice] = useState<{ style: KidsStyle; over: KidsStyle } | null>(null);
  const shown = choice && choice.over === style ? choice.style : style;

  const chooseStyle = (next: KidsStyle) => {
    if (!doc || next === shown) return;
    setChoice({ style: next, over: style });
    void updateKidsStyle(doc.id, doc.app_settings, next)
      .then((result) => {
        if (!result.ok) setChoice(null);
      })
      .catch(() => setChoice(null));
  };

  return (
    <fieldset className="look-picker">
      <legend className="look-picker__legend">Look</legend>
      <fieldset className="theme-picker" aria-describedby="look-style-hint">
        <legend>Style</legend>
        {KIDS_STYLE_NAMES.map((name) => (
          <label key={name} className="theme-picker__option look-picker__style">
            <input type="radio" name="kids-style" value={name} checked={shown === name} disabled={!doc} onChange={() => chooseStyle(name)} />
            <span className={`look-picker__sample look-picker__sample--${name}`} aria-hidden="true" />
            <span>
              <span className="look-picker__name">{styleLabels[name].name}</span>
              <span className="look-picker__text">{styleLabels[name].text}</span>
            </span>
          </label>
        ))}
        <p id="look-style-hint" className="look-picker__hint">
          {doc ? 'Saved to your account, so it follows you to other phones and tablets.' : 'You can change your style once Hearth has synced with your home.'}
        </p>
      </fieldset>
      <fieldset className="theme-picker" aria-describedby="look-shapes-hint">
        <legend>Shapes</legend>
        {themeNames.map((theme) => (
          <label key={theme} className="theme-picker__option">
            <input type="radio" name="theme" value={theme} checked={settings.theme === theme} onChange={() => updateSettings({ theme })} />
            {shapeLabels[theme]}
          </label>
        ))}
        <p id="look-shapes-hint" className="look-picker__hint">
          Kept on this device.
        </p>
      </fieldset>
    </fieldset>
  );
}
