// What a voice in a language other than English is given for the writings espeak read wrongly
// (numeric dates, times, ranges, units, abbreviations, titles, a currency sign before its
// number, German years and ordinal dates), and what is left as written. What espeak then says is
// checked through its phonemes in speech.test.ts.
import { describe, expect, it } from 'vitest';
import { espeakText } from '../speech/espeak-text.js';
import { BEFORE_NUMBERS, TITLES } from '../speech/english-text.js';
import { LANGUAGES } from '../speech/language-text.js';
import { ABBREVIATIONS } from '../../../shared/scene/index.js';

describe('text for a voice in another language', () => {
  it.each([
    ['de', 'Z.B. am 03.04.2026 um 10:00 Uhr, bis 10.30 Uhr.', 'Zum Beispiel am dritten April 2026 um 10 Uhr, bis 10 Uhr 30.'],
    ['de', 'Der 3. Mai 2026 und im 19. Jh. und 1990.', 'Der dritte Mai 2026 und im neunzehnten Jahrhundert und 1990.'],
    ['de', 'Im Jahr 1990 und seit 1905, die 1990er.', 'Im Jahr neunzehnhundertneunzig und seit neunzehnhundertfünf, die neunzehnhundertneunziger.'],
    ['de', 'Es kostet €5,99 oder 3,5 Mio. € bzw. 1.000 €.', 'Es kostet 5 Euro 99 oder 3,5 Millionen € beziehungsweise 1.000 €.'],
    ['de', '5-10 kg, 25 °C, 60 km/h, 16GB, 3 h.', '5 bis 10 Kilogramm, 25 Grad Celsius, 60 Kilometer pro Stunde, 16 Gigabait, 3 Stunden.'],
    ['de', 'Dr. Müller und Prof. Schmidt, Nr. 5, S. 12, usw.', 'Doktor Müller und Professor Schmidt, Nummer 5, Seite 12, und so weiter.'],
    ['de', 'Mo-Fr 2x täglich. Das kostet 3 Mio.\nNeu', 'Montag bis Freitag 2 mal täglich. Das kostet 3 Millionen.\nNeu'],
    ['de', 'Ludwig XIV und Kapitel IV, Größe XL.', 'Ludwig der vierzehnte und Kapitel 4, Größe XL.'],
    ['fr', 'Louis XIV et chapitre IV.', 'Louis 14 et chapitre 4.'],
    ['fr', 'Le 2e étage, la 3ème place, la 1re fois, au XXe siècle, Napoléon Ier, le 21e, 71e, 80e, 91e, nº 1.', 'Le deuxième étage, la troisième place, la première fois, au vingtième siècle, Napoléon premier, le vingt et unième, soixante et onzième, quatre-vingtième, quatre-vingt-onzième, numéro 1.'],
    ['es', '1.º, 2.ª, 3º, 11.º, siglo XX, Felipe VI, Alfonso XIII, capítulo IV.', 'primero, segunda, tercero, 11º, siglo 20, Felipe sexto, Alfonso 13, capítulo 4.'],
    ['nl', 'Lodewijk XIV en hoofdstuk IV.', 'Lodewijk de veertiende en hoofdstuk 4.'],
    ['pl', 'Ludwik XIV i rozdział IV.', 'Ludwik czternasty i rozdział 4.'],
    ['pl', 'XXI wiek, w XXI wieku, od XX wieku, V wiek.', 'dwudziesty pierwszy wiek, w dwudziestym pierwszym wieku, od dwudziestego wieku, piąty wiek.'],
    ['fr', 'Le 03/04/2026 à 10h30, 10h, 10:00.', 'Le 3 avril 2026 à 10 heures 30, 10 heures, 10 heures.'],
    ['fr', 'Le 01/05/2026, de 5-10 €, 5,99 €, €5.', 'Le 1er mai 2026, de 5 à 10 €, 5 euros 99, 5 €.'],
    ['fr', 'M. Dupont et Mme Durand, n° 5, p. 12, p. ex. 25 °C.', 'Monsieur Dupont et Madame Durand, numéro 5, page 12, par exemple 25 degrés Celsius.'],
    ['es', 'El 03/04/2026 a las 10:30, 5-10 km, 25 °C, Sr. García, EE.UU., aprox. 5.', 'El 3 de abril de 2026 a las 10 y 30, 5 a 10 kilómetros, 25 grados Celsius, señor García, Estados Unidos, aproximadamente 5.'],
    ['it', 'Il 01/04/2026 alle 10:30, 5-10 km, Sig. Rossi, ecc.', 'Il primo aprile 2026 alle 10 e 30, 5 a 10 chilometri, signor Rossi, eccetera.'],
    ['pt-br', 'Em 03/04/2026 às 10h30, R$ 5,99, R$ 1, 5-10 km, Sr. Silva.', 'Em 3 de abril de 2026 às 10 horas e 30, 5 reais e 99 centavos, 1 real, 5 a 10 quilômetros, senhor Silva.'],
    ['nl', 'Op 03-04-2026 om 10:30 uur, 5-10 km, dhr. Jansen, bijv. 5,99 €.', 'Op 3 april 2026 om 10 uur 30, 5 tot 10 kilometer, de heer Jansen, bijvoorbeeld 5 euro 99.'],
    ['pl', 'Dnia 03.04.2026 o 10:30, 5-10 zł, 2 zł, 1 zł, 12 zł, np. dr Kowalski.', 'Dnia trzeciego kwietnia 2026 o 10 30, 5 do 10 złotych, 2 złote, 1 złoty, 12 złotych, na przykład doktor Kowalski.'],
    ['ja', '$5 と €10', '5  ドル  と 10  ユーロ '],
    ['ja', '2026-11-23 4:30、5-10、50%、¥100', '2026ねん じゅういちがつ 23にち よじ 30ぷん、5 から 10、50 パーセント、100  えん '],
    ['cmn', '$5 和 €10', '5  美元  和 10  欧元 '],
    ['cmn', '2026年11月23日10:30，5-10，50%，¥100，2026/11/23', '二零二六年11月23日10点30分，5 到 10，百分之50，100  元 ，二零二六年11月23日'],
  ])('in %s says %j as %j', (voice, script, said) => {
    expect(espeakText(script, voice).text).toBe(said);
  });

  it.each([
    ['de', 'Version 2.1.13 und 24/7, Telefon 030-1234 oder 555-1234.'], // phone numbers, no ranges
    ['de', 'Das war 1990 so, am 32.13.2026 nicht.'],
    ['fr', 'Il est 25h99, version 2.1.'],
  ])('in %s leaves %j as said already', (voice, script) => {
    expect(espeakText(script, voice).text).toBe(script);
  });

  it('maps the words said for a date to its caption word', () => {
    const script = 'Am 03.04.2026 um 10:00 Uhr.';
    const text = espeakText(script, 'de');
    const at = (part: string) => text.scriptPosition(text.text.indexOf(part) + 1) - 1;
    expect(at('April')).toBe(script.indexOf('03.'));
    expect(at('um')).toBe(script.indexOf('um'));
    expect(at('Uhr')).toBe(script.indexOf('10:00'));
  });

  it('keeps every title and word before a number with what follows it: its full stop ends no sentence, caption page or chunk', () => {
    // A voice can only say "Dr. Müller" as "Doktor Müller" when both reach it together.
    const written = [
      ...Object.keys(TITLES).map((t) => `${t}.`),
      ...Object.keys(BEFORE_NUMBERS).filter((w) => w !== 'No').map((w) => `${w}.`),
      ...Object.values(LANGUAGES).flatMap((l) => [...Object.keys(l.titles ?? {}), ...Object.keys(l.beforeNumbers ?? {})]),
    ].filter((w) => w.endsWith('.'));
    expect(written.filter((w) => !ABBREVIATIONS.has(w))).toEqual([]);
  });
});
