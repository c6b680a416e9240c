// The language check a creator sees: which scripts are recognised, which voices they warn
// about, which they cannot read at all, and that ordinary English (with a foreign name or two) never does.
import { describe, expect, it } from 'vitest';
import { detectLanguage, scriptWarnings, unreadableScript } from '../detect.js';

const SCRIPTS: [string, string][] = [
  ['Good evening and welcome. Tonight we look at what changed this quarter and why it matters.', 'en'],
  ['Guten Abend und willkommen. Heute zeigen wir, was sich in diesem Quartal geändert hat und warum es wichtig ist.', 'de'],
  ['Bonsoir et bienvenue. Ce soir nous regardons ce qui a changé ce trimestre et pourquoi cela compte pour vous.', 'fr'],
  ['Buenas noches y bienvenidos. Esta noche vemos lo que ha cambiado este trimestre y por qué es importante para los clientes.', 'es'],
  ['Buonasera e benvenuti. Questa sera vediamo che cosa è cambiato in questo trimestre e perché è importante per tutti.', 'it'],
  ['Boa noite e bem-vindos. Esta noite vemos o que mudou neste trimestre e por que isso é importante para você.', 'pt'],
  ['Goedenavond en welkom. Vanavond kijken we naar wat er dit kwartaal is veranderd en waarom dat voor je belangrijk is.', 'nl'],
  ['Dobry wieczór i witamy. Dziś wieczorem zobaczymy, co się zmieniło w tym kwartale i dlaczego to jest ważne.', 'pl'],
  ['今天天气很好，我们去公园散步吧。欢迎收看本期节目。', 'zh'],
  ['こんにちは、皆さん。今日は今期の変更点についてお話しします。', 'ja'],
  ['안녕하세요 여러분, 이번 분기의 변경 사항을 알려 드립니다.', 'ko'],
  ['مرحبا بكم في الاستوديو، هذا هو التحديث الفصلي للشركة.', 'ar'],
  ['שלום לכולם, זה העדכון הרבעוני של החברה שלנו.', 'he'],
  ['Добрый вечер и добро пожаловать. Сегодня мы расскажем, что изменилось.', 'ru'],
  ['Καλησπέρα και καλώς ήρθατε. Απόψε βλέπουμε τι άλλαξε αυτό το τρίμηνο.', 'el'],
];

describe('script language detection', () => {
  it.each(SCRIPTS)('recognises %s', (text, language) => {
    expect(detectLanguage(text)?.language).toBe(language);
  });

  it('warns for a script in another language of the same writing as the voice, refuses one the voice cannot read, never for its own', () => {
    const LATIN = new Set(['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl']);
    const voices = [{ name: 'Hamed', locale: 'ar-SA' }, { name: 'Xiaoxiao', locale: 'zh-CN' }];
    for (const [text, language] of SCRIPTS) {
      expect(scriptWarnings(text, { locale: `${language}-XX` }), text).toEqual([]);
      expect(unreadableScript(text, { name: 'Own', locale: `${language}-XX` }), text).toBeNull();
      const other = language === 'en' ? 'de-DE' : 'en-US';
      if (LATIN.has(language)) {
        expect(scriptWarnings(text, { locale: other }), text).toEqual([
          { code: 'language_mismatch', language, voiceLocale: other, message: expect.stringContaining('render anyway') },
        ]);
        expect(unreadableScript(text, { name: 'Ava', locale: other }), text).toBeNull();
      } else {
        expect(scriptWarnings(text, { locale: other }), text).toEqual([]);
        const speakers = voices.filter((v) => v.locale.startsWith(`${language}-`)).map((v) => v.name);
        expect(unreadableScript(text, { name: 'Ava', locale: other }, voices), text).toEqual({
          language,
          message: expect.stringMatching(speakers.length ? new RegExp(`cannot read; choose a voice that speaks .*: ${speakers[0]}$`) : /cannot read; no voice of this studio speaks/),
        });
      }
    }
  });

  it('says nothing when unsure: short text, names, numbers, mixed scripts', () => {
    for (const text of ['Hello Bob!', 'München, Zürich, São Paulo.', '2026: 42 % up', 'Hi 🎉', 'Presenter Studio 東京 Tokyo مرحبا office']) {
      expect(scriptWarnings(text, { locale: 'en-US' }), text).toEqual([]);
    }
    // English naming a German city is still English.
    expect(scriptWarnings('The new studio opened in München on time, and the whole team was there for it.', { locale: 'en-US' })).toEqual([]);
  });

  it('does not tell apart languages sharing a script it cannot separate (Cyrillic, Arabic)', () => {
    expect(scriptWarnings('Добрый вечер и добро пожаловать. Сегодня мы расскажем, что изменилось.', { locale: 'uk-UA' })).toEqual([]);
    expect(scriptWarnings('مرحبا بكم في الاستوديو، هذا هو التحديث الفصلي للشركة.', { locale: 'fa-IR' })).toEqual([]);
  });

  it('lets a Japanese voice read kanji (the engine gives it their readings) and a Chinese one not kana', () => {
    const kanji = 'こんにちは。今日は新しいスタジオを紹介します。';
    expect(scriptWarnings(kanji, { locale: 'ja-JP', engine: 'espeak' })).toEqual([]);
    expect(unreadableScript(kanji, { name: 'Nanami', locale: 'ja-JP' })).toBeNull();
    expect(unreadableScript(kanji, { name: 'Xiaoxiao', locale: 'zh-CN' })?.language).toBe('ja');
  });
});
