// Writings espeak reads wrongly in the catalog's languages other than English (heard through its
// phonemes): a numeric date was read digit group by digit group with its dots or slashes ("null
// drei Punkt null vier Punkt…", "cero tres barra cero cuatro barra…"), a time's zeros ("dix heures
// zéro zéro"), a range without its "to" ("cinq dix"), a unit's letters ("zehn K G"), an
// abbreviation's letters or a title's full stop as a sentence's end ("D R | Müller"), and a
// currency sign before its number first ("Euro fünf"). One table per language; English has its
// own (english-text.ts).
import { alternation, NUMBER, rangeRewrite, romanRewrite, romanValue, stopKept, unitsRewrite, wordBefore, type Rewrite } from './text-rules.js';

interface LanguageWords {
  /** Month names as said in a date. */
  months: string[];
  /** A date as said; `before` is the word before it in the script ("am", "le"). */
  date(day: number, month: string, year: number, before: string): string;
  /** A time as said ("10 Uhr 30"); `hourWords` after a time are its own and said once. */
  time(hour: number, minute: number): string;
  hourWords?: string;
  /** "10h30" is a time in French and Portuguese. */
  hourMark?: boolean;
  /** The word of a range ("5-10": "5 bis 10"). */
  to: string;
  /** Units after a number, said for 1 and for more ("byte" as "bait" where espeak said "büte"). */
  units?: Record<string, [one: string, many: string]>;
  /** Abbreviations said anywhere, before a capitalised name, before a number. */
  words?: Record<string, string>;
  titles?: Record<string, string>;
  beforeNumbers?: Record<string, string>;
  /** Roman numerals: numbers after these words ("Kapitel IV"), a ruler's ordinal after a name ("Ludwig XIV"). */
  roman?: { counted: string[]; afterName(n: number): string | null };
  /** The language's own rules, after the dates and before the times. */
  own?: Rewrite[];
}

// German ordinals for a day ("3." "dritte", "am 3." "dritten") and years as said
// ("neunzehnhundertneunzig": espeak said "eintausend neunhundert neunzig" for 1990).
const GERMAN_ORDINALS = ['erst', 'zweit', 'dritt', 'viert', 'fünft', 'sechst', 'siebt', 'acht', 'neunt', 'zehnt', 'elft', 'zwölft', 'dreizehnt', 'vierzehnt', 'fünfzehnt', 'sechzehnt', 'siebzehnt', 'achtzehnt', 'neunzehnt', 'zwanzigst', 'einundzwanzigst', 'zweiundzwanzigst', 'dreiundzwanzigst', 'vierundzwanzigst', 'fünfundzwanzigst', 'sechsundzwanzigst', 'siebenundzwanzigst', 'achtundzwanzigst', 'neunundzwanzigst', 'dreißigst', 'einunddreißigst'];
const GERMAN_DATIVE = new Set(['am', 'vom', 'zum', 'bis', 'ab', 'seit', 'dem', 'den', 'des', 'im', 'beim']);
const germanOrdinal = (n: number, before: string) => `${GERMAN_ORDINALS[n - 1]}${GERMAN_DATIVE.has(before) ? 'en' : 'e'}`;
const GERMAN_UNITS = ['', 'ein', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun'];
const GERMAN_TEENS = ['zehn', 'elf', 'zwölf', 'dreizehn', 'vierzehn', 'fünfzehn', 'sechzehn', 'siebzehn', 'achtzehn', 'neunzehn'];
const GERMAN_TENS = ['', '', 'zwanzig', 'dreißig', 'vierzig', 'fünfzig', 'sechzig', 'siebzig', 'achtzig', 'neunzig'];
/** 1 to 99 in words: a year in words is read as one by SVOX Pico too ("19hundert90" was not). */
const germanNumber = (n: number) =>
  n < 10 ? (n === 1 ? 'eins' : GERMAN_UNITS[n]!) : n < 20 ? GERMAN_TEENS[n - 10]! : `${n % 10 ? `${GERMAN_UNITS[n % 10]}und` : ''}${GERMAN_TENS[Math.floor(n / 10)]}`;
const germanYear = (y: number) => (y >= 1100 && y < 2000 ? `${germanNumber(Math.floor(y / 100))}hundert${y % 100 ? germanNumber(y % 100) : ''}` : String(y));
const GERMAN_MONTHS = ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'];
const GERMAN_MONTH = GERMAN_MONTHS.join('|');
const GERMAN_DAYS: Record<string, string> = { Mo: 'Montag', Di: 'Dienstag', Mi: 'Mittwoch', Do: 'Donnerstag', Fr: 'Freitag', Sa: 'Samstag', So: 'Sonntag' };

// French ordinals in words ("2e" was "deux e", "XXe siècle" "iks-gze siècle"): the cardinal, then
// "-ième" as French spells it (cinq "cinquième", neuf "neuvième", quatre "quatrième").
const FRENCH_UNITS = ['', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf', 'dix', 'onze', 'douze', 'treize', 'quatorze', 'quinze', 'seize', 'dix-sept', 'dix-huit', 'dix-neuf'];
const FRENCH_TENS = ['', '', 'vingt', 'trente', 'quarante', 'cinquante', 'soixante', 'soixante', 'quatre-vingt', 'quatre-vingt'];
function frenchNumber(n: number): string {
  if (n < 20) return FRENCH_UNITS[n]!;
  const [t, u] = [Math.floor(n / 10), n % 10];
  const rest = t === 7 || t === 9 ? 10 + u : u; // soixante-dix, quatre-vingt-onze
  if (rest === 0) return t === 8 ? 'quatre-vingts' : FRENCH_TENS[t]!;
  return `${FRENCH_TENS[t]}${(rest === 1 || rest === 11) && t < 8 ? ' et ' : '-'}${FRENCH_UNITS[rest]}`;
}
function frenchOrdinal(n: number, feminine = false): string {
  if (n === 1) return feminine ? 'première' : 'premier';
  const word = frenchNumber(n).replace(/vingts$/, 'vingt');
  return word.endsWith('cinq') ? `${word}uième` : word.endsWith('neuf') ? `${word.slice(0, -1)}vième` : word.endsWith('e') ? `${word.slice(0, -1)}ième` : `${word}ième`;
}
const SPANISH_ORDINALS = ['primer', 'segund', 'tercer', 'cuart', 'quint', 'sext', 'séptim', 'octav', 'noven', 'décim'];
const spanishOrdinal = (n: number, feminine: boolean) => (n <= 10 ? `${SPANISH_ORDINALS[n - 1]}${feminine ? 'a' : 'o'}` : null);

const DUTCH_ORDINALS = ['eerste', 'tweede', 'derde', 'vierde', 'vijfde', 'zesde', 'zevende', 'achtste', 'negende', 'tiende', 'elfde', 'twaalfde', 'dertiende', 'veertiende', 'vijftiende', 'zestiende', 'zeventiende', 'achttiende', 'negentiende', 'twintigste'];
const POLISH_RULERS = ['pierwszy', 'drugi', 'trzeci', 'czwarty', 'piąty', 'szósty', 'siódmy', 'ósmy', 'dziewiąty', 'dziesiąty', 'jedenasty', 'dwunasty', 'trzynasty', 'czternasty', 'piętnasty', 'szesnasty', 'siedemnasty', 'osiemnasty', 'dziewiętnasty', 'dwudziesty'];
const POLISH_ORDINALS = ['pierwszego', 'drugiego', 'trzeciego', 'czwartego', 'piątego', 'szóstego', 'siódmego', 'ósmego', 'dziewiątego', 'dziesiątego', 'jedenastego', 'dwunastego', 'trzynastego', 'czternastego', 'piętnastego', 'szesnastego', 'siedemnastego', 'osiemnastego', 'dziewiętnastego', 'dwudziestego'];
/** "XXI wiek" was spelled "iks iks i": the ordinal in the form its noun takes (wiek, w … wieku, od … wieku). */
const polishRuler = (n: number) => (n <= 20 ? POLISH_RULERS[n - 1]! : `${n < 30 ? 'dwudziesty' : 'trzydziesty'}${n % 10 ? ` ${POLISH_RULERS[(n % 10) - 1]}` : ''}`);
function polishCentury(m: RegExpExecArray): string {
  const n = romanValue(m[1]!);
  if (!n || n > 29) return m[0];
  const said = m[2] === 'wiek' ? polishRuler(n) : ['w', 'we'].includes(wordBefore(m)) ? polishRuler(n).replace(/(\S+)/g, '$1m') : polishOrdinal(n);
  return `${said} ${m[2]}`;
}
const polishOrdinal = (n: number) => (n <= 20 ? POLISH_ORDINALS[n - 1]! : `${n < 30 ? 'dwudziestego' : 'trzydziestego'}${n % 10 ? ` ${POLISH_ORDINALS[(n % 10) - 1]}` : ''}`);

// Chinese reads a year digit by digit ("二零二六年"; espeak said "两千零二十六年").
const HANZI_DIGITS = '零一二三四五六七八九';
const chineseYear = (y: number) => [...String(y)].map((d) => HANZI_DIGITS[Number(d)]).join('');
// Japanese in kana (espeak's Japanese reads no kanji): hours and months whose reading is not
// the number's ("4じ" is "よじ"), days with readings of their own ("1日" "ついたち").
const KANA_NUMBERS = ['', 'いち', 'に', 'さん', 'よ', 'ご', 'ろく', 'しち', 'はち', 'く', 'じゅう', 'じゅういち', 'じゅうに'];
const kanaHour = (h: number) => (h <= 12 ? KANA_NUMBERS[h]! : h < 20 ? `じゅう${KANA_NUMBERS[h - 10]}` : `にじゅう${KANA_NUMBERS[h - 20]}`);
const KANA_DAYS: Record<number, string> = { 1: 'ついたち', 2: 'ふつか', 3: 'みっか', 4: 'よっか', 5: 'いつか', 6: 'むいか', 7: 'なのか', 8: 'ようか', 9: 'ここのか', 10: 'とおか', 14: 'じゅうよっか', 20: 'はつか', 24: 'にじゅうよっか' };

export const LANGUAGES: Record<string, LanguageWords> = {
  de: {
    months: GERMAN_MONTHS,
    date: (day, month, year, before) => `${germanOrdinal(day, before)} ${month} ${germanYear(year)}`,
    time: (h, min) => `${h} Uhr${min ? ` ${min}` : ''}`,
    hourWords: 'Uhr',
    to: 'bis',
    units: {
      kg: ['Kilogramm', 'Kilogramm'], g: ['Gramm', 'Gramm'], km: ['Kilometer', 'Kilometer'], m: ['Meter', 'Meter'], cm: ['Zentimeter', 'Zentimeter'],
      mm: ['Millimeter', 'Millimeter'], l: ['Liter', 'Liter'], ml: ['Milliliter', 'Milliliter'], t: ['Tonne', 'Tonnen'], h: ['Stunde', 'Stunden'],
      'Std.': ['Stunde', 'Stunden'], min: ['Minute', 'Minuten'], 'Min.': ['Minute', 'Minuten'], 'Sek.': ['Sekunde', 'Sekunden'], 'km/h': ['Kilometer pro Stunde', 'Kilometer pro Stunde'],
      '°C': ['Grad Celsius', 'Grad Celsius'], KB: ['Kilobait', 'Kilobait'], MB: ['Megabait', 'Megabait'], GB: ['Gigabait', 'Gigabait'], TB: ['Terabait', 'Terabait'],
      kWh: ['Kilowattstunde', 'Kilowattstunden'], 'Mio.': ['Million', 'Millionen'], Mio: ['Million', 'Millionen'], 'Mrd.': ['Milliarde', 'Milliarden'], Mrd: ['Milliarde', 'Milliarden'],
      'Tsd.': ['Tausend', 'Tausend'],
    },
    words: {
      'z.B.': 'zum Beispiel', 'z. B.': 'zum Beispiel', 'usw.': 'und so weiter', 'd.h.': 'das heißt', 'd. h.': 'das heißt', 'bzw.': 'beziehungsweise',
      'ggf.': 'gegebenenfalls', 'inkl.': 'inklusive', 'evtl.': 'eventuell', 'u.a.': 'unter anderem', 'u. a.': 'unter anderem', 'v.a.': 'vor allem',
      'z.T.': 'zum Teil', 'u.U.': 'unter Umständen', 'o.Ä.': 'oder Ähnliches', 'ca.': 'circa', 'vs.': 'versus', 'etc.': 'et cetera', 'max.': 'maximal',
      'mind.': 'mindestens', 'bspw.': 'beispielsweise', 'sog.': 'sogenannte', 'Jh.': 'Jahrhundert', 'Tel.': 'Telefon', 'Str.': 'Straße',
    },
    titles: { 'Dr.': 'Doktor', 'Prof.': 'Professor', 'Hr.': 'Herr', 'Hrn.': 'Herrn', 'Fr.': 'Frau', 'St.': 'Sankt' },
    roman: { counted: ['Kapitel', 'Teil', 'Band', 'Akt', 'Staffel', 'Folge', 'Phase', 'Stufe', 'Level', 'Runde', 'Artikel', 'Abschnitt'], afterName: (n) => (n <= 31 ? `der ${GERMAN_ORDINALS[n - 1]}e` : null) },
    beforeNumbers: { 'Nr.': 'Nummer', 'S.': 'Seite', 'Abb.': 'Abbildung', 'Kap.': 'Kapitel', 'Bd.': 'Band' },
    own: [
      // "am 3. April" was "drei | April" (a sentence's end); "im 19. Jh." "neunzehn | Jh".
      [new RegExp(String.raw`(?<![\p{L}\p{N}.,])(\d{1,2})\.(?=\s*(?:${GERMAN_MONTH}|Jahrhundert|Jh\.)(?![\p{L}]))`, 'gu'), (m) => {
        const n = Number(m[1]);
        return n >= 1 && n <= 31 ? germanOrdinal(n, wordBefore(m)) : m[0];
      }],
      // A year where one is meant, "1990er" (was "eintausend neunhundert neunziger").
      [/(?<![\p{L}\p{N}.,])(1[1-9]\d\d)(?=er\b)/gu, (m) => germanYear(Number(m[1]))],
      [new RegExp(String.raw`(?<=\b(?:Jahre?|seit|von|bis|ab|vor|nach|um|Anfang|Ende|Mitte|Sommer|Winter|Frühjahr|Herbst|${GERMAN_MONTH})\s+)(1[1-9]\d\d)(?![\p{N}]|[.,]\d)`, 'gu'), (m) => germanYear(Number(m[1]))],
      // "10.30 Uhr" (was "zehn Punkt dreißig Uhr").
      [/(?<![\p{N}.:])(\d{1,2})\.(\d\d)\s?Uhr\b/gu, (m) => `${m[1]} Uhr ${Number(m[2]) || ''}`.trimEnd()],
      [new RegExp(String.raw`\b(${Object.keys(GERMAN_DAYS).join('|')})\.?\s?[-–]\s?(${Object.keys(GERMAN_DAYS).join('|')})\b\.?`, 'gu'), (m) => `${GERMAN_DAYS[m[1]!]} bis ${GERMAN_DAYS[m[2]!]}`],
      [/(?<=\d)x(?=[\s,.;:!?]|$)/gu, () => ' mal'],
      // "5,99 €" was "fünf Komma neun neun Euro".
      [/(?<![\p{N}.,])(\d+),(\d\d)\s?(?:€|Euro\b)/gu, (m) => `${m[1]} Euro ${Number(m[2])}`],
    ],
  },
  fr: {
    months: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
    date: (day, month, year) => `${day === 1 ? '1er' : day} ${month} ${year}`,
    time: (h, min) => `${h} ${h === 1 ? 'heure' : 'heures'}${min ? ` ${min}` : ''}`,
    hourMark: true,
    to: 'à',
    units: {
      'km/h': ['kilomètre par heure', 'kilomètres par heure'], '°C': ['degré Celsius', 'degrés Celsius'], Go: ['gigaoctet', 'gigaoctets'], Mo: ['mégaoctet', 'mégaoctets'],
      To: ['téraoctet', 'téraoctets'], GB: ['gigaoctet', 'gigaoctets'], MB: ['mégaoctet', 'mégaoctets'], min: ['minute', 'minutes'], kWh: ['kilowattheure', 'kilowattheures'],
    },
    words: { 'p. ex.': 'par exemple', 'c.-à-d.': "c'est-à-dire", 'env.': 'environ', 'av. J.-C.': 'avant Jésus-Christ', 'apr. J.-C.': 'après Jésus-Christ' },
    roman: { counted: ['chapitre', 'partie', 'tome', 'acte', 'saison', 'épisode', 'article', 'titre', 'volume', 'livre'], afterName: (n) => String(n) },
    titles: { 'M.': 'Monsieur', 'MM.': 'Messieurs', 'Mme': 'Madame', 'Mlle': 'Mademoiselle', 'Dr.': 'Docteur', 'Pr.': 'Professeur' },
    beforeNumbers: { 'n°': 'numéro', 'N°': 'numéro', 'nº': 'numéro', 'Nº': 'numéro', 'p.': 'page' },
    own: [
      [/(?<![\p{N}.,])(\d+),(\d\d)\s?(?:€|euros?\b)/gu, (m) => `${m[1]} ${m[1] === '1' ? 'euro' : 'euros'} ${Number(m[2])}`],
      // Ordinals: "2e", "3ème", "1re", "XXe siècle", "Napoléon Ier".
      [/(?<![\p{L}\p{N}])(\d{1,2})(e|ème|ième|re|ère)(?![\p{L}\p{N}])/gu, (m) => (Number(m[1]) >= 1 ? frenchOrdinal(Number(m[1]), m[2] === 're' || m[2] === 'ère') : m[0])],
      [/(?<![\p{L}\p{N}])(?!Le\b)([IVXL]{1,7})(e|ème|er|re)(?![\p{L}\p{N}])/gu, (m) => { // "Le" is the article
        const n = romanValue(m[1]!);
        return n && n < 90 && (n === 1) === (m[2] === 'er' || m[2] === 're') ? frenchOrdinal(n, m[2] === 're') : m[0];
      }],
    ],
  },
  es: {
    months: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
    date: (day, month, year) => `${day} de ${month} de ${year}`,
    time: (h, min) => `${h}${min ? ` y ${min}` : ''}`,
    to: 'a',
    units: {
      km: ['kilómetro', 'kilómetros'], cm: ['centímetro', 'centímetros'], mm: ['milímetro', 'milímetros'], 'km/h': ['kilómetro por hora', 'kilómetros por hora'],
      '°C': ['grado Celsius', 'grados Celsius'], GB: ['gigabyte', 'gigabytes'], MB: ['megabyte', 'megabytes'], h: ['hora', 'horas'], min: ['minuto', 'minutos'],
    },
    words: { 'EE.UU.': 'Estados Unidos', 'EE. UU.': 'Estados Unidos', 'aprox.': 'aproximadamente' },
    titles: { 'Sr.': 'señor', 'Sra.': 'señora', 'Srta.': 'señorita', 'Dr.': 'doctor', 'Dra.': 'doctora', 'D.': 'don', 'Dña.': 'doña' },
    beforeNumbers: { 'núm.': 'número', 'nº': 'número', 'Nº': 'número', 'pág.': 'página' },
    // "1.º" was "uno punto o", "Felipe VI" "Felipe vi" (a word).
    roman: { counted: ['siglo', 'capítulo', 'parte', 'tomo', 'acto', 'temporada', 'episodio', 'artículo'], afterName: (n) => spanishOrdinal(n, false) },
    own: [[/(?<![\p{L}\p{N}])(\d{1,2})\.?([ºª])(?![\p{L}\p{N}])/gu, (m) => spanishOrdinal(Number(m[1]), m[2] === 'ª') ?? `${m[1]}${m[2]}`]],
  },
  it: {
    months: ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'],
    date: (day, month, year) => `${day === 1 ? 'primo' : day} ${month} ${year}`,
    time: (h, min) => `${h}${min ? ` e ${min}` : ''}`,
    to: 'a',
    units: {
      kg: ['chilogrammo', 'chilogrammi'], km: ['chilometro', 'chilometri'], cm: ['centimetro', 'centimetri'], mm: ['millimetro', 'millimetri'],
      'km/h': ['chilometro orario', 'chilometri orari'], '°C': ['grado Celsius', 'gradi Celsius'], GB: ['gigabyte', 'gigabyte'], MB: ['megabyte', 'megabyte'],
      h: ['ora', 'ore'], min: ['minuto', 'minuti'],
    },
    words: { 'ecc.': 'eccetera', 'ad es.': 'ad esempio', 'ca.': 'circa' },
    titles: { 'Sig.': 'signor', 'Sig.ra': 'signora', 'Dott.': 'dottor', 'Dott.ssa': 'dottoressa', 'Prof.': 'professor', 'Prof.ssa': 'professoressa' },
    beforeNumbers: { 'n.': 'numero', 'pag.': 'pagina', 'p.': 'pagina' },
  },
  pt: {
    months: ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
    date: (day, month, year) => `${day === 1 ? 'primeiro' : day} de ${month} de ${year}`,
    time: (h, min) => `${h} ${h === 1 ? 'hora' : 'horas'}${min ? ` e ${min}` : ''}`,
    hourMark: true,
    to: 'a',
    units: {
      kg: ['quilo', 'quilos'], km: ['quilômetro', 'quilômetros'], cm: ['centímetro', 'centímetros'], mm: ['milímetro', 'milímetros'],
      'km/h': ['quilômetro por hora', 'quilômetros por hora'], '°C': ['grau Celsius', 'graus Celsius'], GB: ['gigabyte', 'gigabytes'], MB: ['megabyte', 'megabytes'],
      min: ['minuto', 'minutos'],
    },
    words: { 'p. ex.': 'por exemplo', 'aprox.': 'aproximadamente' },
    titles: { 'Sr.': 'senhor', 'Sra.': 'senhora', 'Dr.': 'doutor', 'Dra.': 'doutora' },
    beforeNumbers: { 'nº': 'número', 'Nº': 'número', 'pág.': 'página' },
    // "R$ 5,99" was "real dólar cinco vírgula noventa e nove".
    own: [[/(?<![\p{L}\p{N}])R\$\s?(\d[\d.]*)(?:,(\d\d))?(?![\p{N}]|,\d)/gu, (m) => {
      const cents = Number(m[2] ?? 0);
      return `${m[1]} ${m[1] === '1' ? 'real' : 'reais'}${cents ? ` e ${cents} ${cents === 1 ? 'centavo' : 'centavos'}` : ''}`;
    }]],
  },
  nl: {
    months: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
    date: (day, month, year) => `${day} ${month} ${year}`,
    time: (h, min) => `${h} uur${min ? ` ${min}` : ''}`,
    hourWords: 'uur',
    to: 'tot',
    units: {
      kg: ['kilo', 'kilo'], km: ['kilometer', 'kilometer'], cm: ['centimeter', 'centimeter'], mm: ['millimeter', 'millimeter'], 'km/h': ['kilometer per uur', 'kilometer per uur'],
      '°C': ['graad Celsius', 'graden Celsius'], GB: ['gigabait', 'gigabait'], MB: ['megabait', 'megabait'], min: ['minuut', 'minuten'],
    },
    words: { 'bijv.': 'bijvoorbeeld', 'o.a.': 'onder andere', 'd.w.z.': 'dat wil zeggen', 'enz.': 'enzovoort', 'i.p.v.': 'in plaats van', 'm.b.t.': 'met betrekking tot', 't/m': 'tot en met', 'ca.': 'circa' },
    roman: { counted: ['hoofdstuk', 'deel', 'seizoen', 'aflevering', 'artikel', 'fase', 'boek'], afterName: (n) => (n <= 20 ? `de ${DUTCH_ORDINALS[n - 1]}` : null) },
    titles: { 'dhr.': 'de heer', 'Dhr.': 'de heer', 'mevr.': 'mevrouw', 'Mevr.': 'mevrouw', 'Dr.': 'dokter', 'Prof.': 'professor' },
    beforeNumbers: { 'nr.': 'nummer', 'Nr.': 'nummer', 'blz.': 'bladzijde', 'p.': 'pagina' },
    own: [[/(?<![\p{N}.,])(\d+),(\d\d)\s?(?:€|euro\b)/gu, (m) => `${m[1]} euro ${Number(m[2])}`]],
  },
  cmn: {
    months: ['1月', '2月', '3月', '4月', '5月', '6月', '7月', '8月', '9月', '10月', '11月', '12月'],
    date: (day, month, year) => `${chineseYear(year)}年${month}${day}日`,
    time: (h, min) => `${h}点${min ? `${min}分` : ''}`,
    to: '到',
    units: { km: ['公里', '公里'], kg: ['公斤', '公斤'], '°C': ['度', '度'] },
    own: [
      [/(?<![\p{N}.,])(\d{4})(?=\s?年)/gu, (m) => chineseYear(Number(m[1]))],
      // "50%" was "五十 percent", in English.
      [new RegExp(String.raw`(?<![\p{N}.,])(${NUMBER})\s?%`, 'gu'), (m) => `百分之${m[1]}`],
    ],
  },
  ja: {
    months: ['いちがつ', 'にがつ', 'さんがつ', 'しがつ', 'ごがつ', 'ろくがつ', 'しちがつ', 'はちがつ', 'くがつ', 'じゅうがつ', 'じゅういちがつ', 'じゅうにがつ'],
    date: (day, month, year) => `${year}ねん ${month} ${KANA_DAYS[day] ?? `${day}にち`}`,
    time: (h, min) => `${kanaHour(h)}じ${min ? ` ${min}${[1, 3, 4, 6, 8, 0].includes(min % 10) ? 'ぷん' : 'ふん'}` : ''}`,
    to: 'から',
    own: [[new RegExp(String.raw`(?<![\p{N}.,])(${NUMBER})\s?%`, 'gu'), (m) => `${m[1]} パーセント`]],
  },
  pl: {
    months: ['stycznia', 'lutego', 'marca', 'kwietnia', 'maja', 'czerwca', 'lipca', 'sierpnia', 'września', 'października', 'listopada', 'grudnia'],
    date: (day, month, year) => `${polishOrdinal(day)} ${month} ${year}`,
    time: (h, min) => `${h}${min ? ` ${min}` : ''}`,
    to: 'do',
    words: { 'np.': 'na przykład', 'itd.': 'i tak dalej', 'itp.': 'i tym podobne', 'tzn.': 'to znaczy', 'tj.': 'to jest' },
    roman: { counted: ['rozdział', 'część', 'tom', 'akt', 'sezon', 'odcinek', 'artykuł'], afterName: (n) => POLISH_RULERS[n - 1] ?? null },
    titles: { 'dr': 'doktor', 'Dr': 'doktor', 'prof.': 'profesor', 'Prof.': 'profesor', 'ul.': 'ulica' },
    beforeNumbers: { 'nr': 'numer', 'ok.': 'około', 'godz.': 'godzina', 's.': 'strona' },
    // "10 zł" was "dziesięć zet eł": złoty in the form its number takes.
    own: [[/(?<![\p{L}\p{N}])([IVXL]{1,7})\s+(wiek|wieku)(?![\p{L}])/gu, polishCentury], [/(?<=(?<![\p{L}\p{N}.,])(\d+)\s?)zł(?![\p{L}])/gu, (m) => {
      const n = Number(m[1]);
      return n === 1 ? 'złoty' : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 'złote' : 'złotych';
    }]],
  },
};

/** A currency sign before its number is said after it, as the language says it ("€5" was "Euro fünf", "ドル 5"). */
const SIGN_AFTER: Rewrite = [new RegExp(String.raw`(?<![\p{L}\p{N}])([€$£¥])\s?(${NUMBER})`, 'gu'), (m) => `${m[2]} ${m[1]}`];

function build(words: LanguageWords): Rewrite[] {
  const rules: Rewrite[] = [SIGN_AFTER];
  const table = (entries: Record<string, string>, pattern: (alt: string) => string, said: (word: string, m: RegExpExecArray) => string) => {
    if (Object.keys(entries).length) rules.push([new RegExp(pattern(alternation(Object.keys(entries))), 'gu'), (m) => said(entries[m[1]!]!, m)]);
  };
  // A sentence may start with one ("Z.B." as "Zum Beispiel").
  const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const anywhere = { ...Object.fromEntries(Object.entries(words.words ?? {}).map(([k, v]) => [capital(k), capital(v)])), ...words.words };
  table(anywhere, (alt) => String.raw`(?<![\p{L}\p{N}])(${alt})(?![\p{L}\p{N}])`, (word, m) => word + stopKept(m));
  table(words.titles ?? {}, (alt) => String.raw`(?<![\p{L}\p{N}])(${alt})(?=\s+\p{Lu})`, (word) => word);
  table(words.beforeNumbers ?? {}, (alt) => String.raw`(?<![\p{L}\p{N}])(${alt})\s*(?=\d)`, (word) => `${word} `);
  const dated = (m: RegExpExecArray, day: number, month: number, year: number) =>
    month >= 1 && month <= 12 && day >= 1 && day <= 31 ? words.date(day, words.months[month - 1]!, year < 50 ? 2000 + year : year < 100 ? 1900 + year : year, wordBefore(m)) : m[0];
  rules.push(
    // Dates, day first ("03.04.2026", "03/04/2026", "3-4-2026", "03/04/26"), and ISO ("2026-11-23").
    [/(?<![\p{L}\p{N}/.,-])(\d{4})-(\d\d)-(\d\d)(?![\p{L}\p{N}]|[-:]\d)/gu, (m) => dated(m, Number(m[3]), Number(m[2]), Number(m[1]))],
    [/(?<![\p{L}\p{N}/.,-])(\d{1,2})([./-])(\d{1,2})\2(\d{4})(?![\p{L}\p{N}]|[./-]\d)/gu, (m) => dated(m, Number(m[1]), Number(m[3]), Number(m[4]))],
    [/(?<![\p{L}\p{N}/.,-])(\d{1,2})\/(\d{1,2})\/(\d\d)(?![\p{L}\p{N}]|[/.-]\d)/gu, (m) => dated(m, Number(m[1]), Number(m[2]), Number(m[3]))],
    [/(?<![\p{L}\p{N}/.,-])(\d{4})\/(\d{1,2})\/(\d{1,2})(?![\p{L}\p{N}]|[/.-]\d)/gu, (m) => dated(m, Number(m[3]), Number(m[2]), Number(m[1]))],
    ...(words.roman ? [romanRewrite(words.roman.counted, words.roman.afterName)] : []),
    ...(words.own ?? []),
    // Times ("10:00" was "zehn null null"; "10h30" "dix ache trente").
    [new RegExp(String.raw`(?<![\p{N}:.])(\d{1,2})(?::(\d\d)${words.hourMark ? String.raw`|h(\d\d)?` : ''})(?![\p{N}]|:\d)${words.hourWords ? String.raw`(?:\s?(?:${words.hourWords})(?![\p{L}]))?` : ''}`, 'gu'), (m) => {
      const [hour, minute] = [Number(m[1]), Number(m[2] ?? m[3] ?? 0)];
      return hour <= 24 && minute < 60 ? words.time(hour, minute) : m[0];
    }],
    // Ranges ("5-10" was "fünf Strich zehn", "cinq dix").
    rangeRewrite(words.to),
  );
  if (words.units) rules.push(unitsRewrite(words.units));
  return rules;
}

const BUILT = new Map(Object.entries(LANGUAGES).map(([lang, words]) => [lang, build(words)]));

/** The rewrites of a language other than English by its espeak voice ("de", "pt-br": "pt"). */
export function languageRewrites(espeakVoice: string): Rewrite[] {
  return BUILT.get(espeakVoice.split(/[-+]/)[0]!) ?? [SIGN_AFTER];
}
