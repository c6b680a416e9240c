// English writings espeak reads wrongly, rewritten as said (heard through espeak's phonemes;
// each rule names what it used to say). A rewrite keeps to the smallest span it can, so the
// caption words around it stay lit while their own words are said.
import { ASPECT_RATIOS } from '../../../shared/contract/index.js';
import { alternation, NUMBER, rangeRewrite, romanRewrite, unitsRewrite, type Rewrite } from './text-rules.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH = `(?:${MONTHS.join('|')})`;
const SHORT_MONTHS: Record<string, string> = { Jan: 'January', Feb: 'February', Mar: 'March', Apr: 'April', Jun: 'June', Jul: 'July', Aug: 'August', Sep: 'September', Sept: 'September', Oct: 'October', Nov: 'November', Dec: 'December' };
const DECADES = ['', 'tens', 'twenties', 'thirties', 'forties', 'fifties', 'sixties', 'seventies', 'eighties', 'nineties'];

const CURRENCIES: Record<string, [one: string, many: string, cent: string, cents: string]> = {
  $: ['dollar', 'dollars', 'cent', 'cents'],
  '€': ['euro', 'euros', 'cent', 'cents'],
  '£': ['pound', 'pounds', 'penny', 'pence'],
  '¥': ['yen', 'yen', 'sen', 'sen'],
};
const SCALES: Record<string, string> = { K: 'thousand', k: 'thousand', M: 'million', B: 'billion', bn: 'billion' };

/** Units after a number, as written (case matters: "ms" but not "Ms"), and said for 1 and for more. */
const UNITS: Record<string, [one: string, many: string]> = {
  kg: ['kilogram', 'kilograms'], mg: ['milligram', 'milligrams'], km: ['kilometer', 'kilometers'], cm: ['centimeter', 'centimeters'],
  mm: ['millimeter', 'millimeters'], mi: ['mile', 'miles'], ft: ['foot', 'feet'], oz: ['ounce', 'ounces'], lb: ['pound', 'pounds'],
  lbs: ['pound', 'pounds'], ml: ['milliliter', 'milliliters'], mL: ['milliliter', 'milliliters'], hr: ['hour', 'hours'],
  hrs: ['hour', 'hours'], min: ['minute', 'minutes'], mins: ['minute', 'minutes'], sec: ['second', 'seconds'], secs: ['second', 'seconds'],
  ms: ['millisecond', 'milliseconds'], KB: ['kilobyte', 'kilobytes'], kB: ['kilobyte', 'kilobytes'], MB: ['megabyte', 'megabytes'],
  GB: ['gigabyte', 'gigabytes'], TB: ['terabyte', 'terabytes'], kWh: ['kilowatt hour', 'kilowatt hours'],
  'km/h': ['kilometer per hour', 'kilometers per hour'], kph: ['kilometer per hour', 'kilometers per hour'],
  '°C': ['degree Celsius', 'degrees Celsius'], '°F': ['degree Fahrenheit', 'degrees Fahrenheit'],
};

/** Titles before a name: their full stop was a sentence's end ("Mr. | Smith"), some said as letters ("Lt." "L T"). */
export const TITLES: Record<string, string> = {
  Mr: 'Mr', Mrs: 'Mrs', Ms: 'Ms', Dr: 'Dr', St: 'St', Prof: 'Professor', Gov: 'Governor', Sen: 'Senator',
  Rep: 'Representative', Gen: 'General', Capt: 'Captain', Lt: 'Lieutenant', Sgt: 'Sergeant', Rev: 'Reverend', Hon: 'Honorable',
  Pres: 'President', Mt: 'Mount', Ft: 'Fort',
};
/** Abbreviations before a number ("Fig. | 3", "p. | 5" were a sentence's end). */
export const BEFORE_NUMBERS: Record<string, string> = {
  Fig: 'figure', fig: 'figure', p: 'page', pp: 'pages', ch: 'chapter', Ch: 'chapter', Vol: 'volume', vol: 'volume', No: 'number',
  ca: 'about', c: 'circa', approx: 'approximately',
};
/** Word pairs around a slash said with "or" ("he/she"); any other pair of words is said without "slash". */
const OR_PAIRS = new Set(['he/she', 'she/he', 'him/her', 'his/her', 'his/hers', 'yes/no', 'true/false', 'on/off', 'either/or']);
/** Fractions said as such (other "n/d" are said "n out of d" when d is 5 or 10, a rating, or left as written). */
const FRACTIONS: Record<string, [one: string, many: string]> = { 2: ['half', 'halves'], 3: ['third', 'thirds'], 4: ['quarter', 'quarters'], 8: ['eighth', 'eighths'] };
/** Words after which a roman numeral counts ("World War II", "Part IV"); after a name it is an ordinal ("Henry VIII", "the eighth"). */
const COUNTED = ['War', 'Part', 'Chapter', 'Volume', 'Vol', 'Act', 'Phase', 'Level', 'Book', 'Round', 'Season', 'Episode', 'Type', 'Class', 'Grade', 'Stage', 'Bowl', 'Rocky', 'Article', 'Section', 'Title', 'Appendix', 'Step'];

function ordinal(n: number): string {
  const tens = n % 100;
  return `${n}${tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
}

/** A year as said: 1990 "19 90" (espeak said "nineteen hundred ninety"), 1905 "19 oh 5", 1900 "19 hundred"; two digits are this century or the last. */
function yearSaid(year: number): string {
  const y = year < 50 ? 2000 + year : year < 100 ? 1900 + year : year;
  if (y < 1000 || y >= 2000) return String(y);
  const [hi, lo] = [Math.floor(y / 100), y % 100];
  return lo === 0 ? `${hi} hundred` : lo < 10 ? `${hi} oh ${lo}` : `${hi} ${lo}`;
}

/** A date as said in the voice's English ("March 4th, 2026"; "the 4th of March 2026"), or null when it is no date. */
function dateSaid(monthFirst: boolean, month: number, day: number, year: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const name = MONTHS[month - 1]!;
  return monthFirst ? `${name} ${ordinal(day)}, ${yearSaid(year)}` : `the ${ordinal(day)} of ${name} ${yearSaid(year)}`;
}

/** A date written "a/b/year" in the voice's order; a number over 12 tells the order whatever the locale's ("25/12/2026" in an American voice). */
function writtenDateSaid(monthFirst: boolean, a: number, b: number, year: number): string | null {
  const [month, day] = monthFirst ? (a > 12 && b <= 12 ? [b, a] : [a, b]) : b > 12 && a <= 12 ? [a, b] : [b, a];
  return dateSaid(monthFirst, month, day, year);
}


function build(monthFirst: boolean): Rewrite[] {
  return [
    // Amounts: "$5" was "dollar five", "$5M" "dollar five M", "£2bn" "pound two B N", "$0.50" "zero point five zero dollars".
    [new RegExp(String.raw`(?<![\p{L}\p{N}])([$€£¥])\s?(${NUMBER})(?:\s?[-–]\s?[$€£¥]?(${NUMBER}))?(?:\s?(thousand|million|billion|trillion|bn|[KkMB])\b)?`, 'gu'), (m) => {
      const [one, many, cent, cents] = CURRENCIES[m[1]!]!;
      const [amount, to, scale] = [m[2]!, m[3], m[4] ? (SCALES[m[4]] ?? m[4]) : ''];
      const pennies = /^([\d,]+)\.(\d\d)$/.exec(amount);
      if (pennies && !to && !scale) {
        const [whole, part] = [Number(pennies[1]!.replace(/,/g, '')), Number(pennies[2])];
        const partSaid = `${part} ${part === 1 ? cent : cents}`;
        if (whole === 0) return partSaid;
        const wholeSaid = `${pennies[1]} ${whole === 1 ? one : many}`;
        return part === 0 ? wholeSaid : `${wholeSaid} and ${partSaid}`;
      }
      return `${amount}${to ? ` to ${to}` : ''}${scale ? ` ${scale}` : ''} ${amount === '1' && !to && !scale ? one : many}`;
    }],
    [new RegExp(String.raw`\b(${alternation(Object.keys(TITLES))})\.(?=\s+\p{Lu})|\b(Mt|Ft|Prof)(?=\s+\p{Lu})`, 'gu'), (m) => TITLES[m[1] ?? m[2]!]!],
    [new RegExp(String.raw`\b(${alternation(Object.keys(BEFORE_NUMBERS))})\.\s*(?=\d)`, 'gu'), (m) => `${BEFORE_NUMBERS[m[1]!]} `],
    [/\bapprox\.(?=\s)/gu, () => 'approximately'],
    [/\bi\.e\.(?=[\s,])/gu, () => 'that is'],
    [/\bvs\.?(?=\s)/gu, () => 'versus'],
    // Dates: "03/04/2026" was "zero three slash zero four slash two thousand...", "2026-11-23" "... dash eleven dash ...".
    [/(?<![\p{L}\p{N}/.,-])(\d{4})-(\d\d)-(\d\d)(?![\p{L}\p{N}]|[-:]\d)/gu, (m) => dateSaid(monthFirst, Number(m[2]), Number(m[3]), Number(m[1])) ?? m[0]],
    [/(?<![\p{L}\p{N}/.,-])(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d\d)(?![\p{L}\p{N}]|[/-]\d)/gu, (m) => writtenDateSaid(monthFirst, Number(m[1]), Number(m[3]), Number(m[4])) ?? m[0]],
    // "Jan. | 5" was "jan", a pause, "five".
    [new RegExp(String.raw`\b(${alternation(Object.keys(SHORT_MONTHS))})\.?(?=\s+\d)`, 'gu'), (m) => SHORT_MONTHS[m[1]!]!],
    // "March 4" was "March four"; "4 March" "four March".
    [new RegExp(String.raw`(?<=\b${MONTH}\s+)(\d{1,2})(?:st|nd|rd|th)?(?!\d|[:.,]\d)`, 'gu'), (m) => (Number(m[1]) >= 1 && Number(m[1]) <= 31 ? ordinal(Number(m[1])) : m[0])],
    [new RegExp(String.raw`(?<![\p{L}\p{N}.,])(\d{1,2})(?:st|nd|rd|th)?(?=\s+(of\s+)?${MONTH}\b)`, 'gu'), (m) => (Number(m[1]) >= 1 && Number(m[1]) <= 31 ? `${ordinal(Number(m[1]))}${m[2] ? '' : ' of'}` : m[0])],
    // Years: "1990" was "nineteen hundred ninety", "1990s" "nineteen hundred ninety z", "'90s" "ninety z".
    [/(?<![\p{L}\p{N}'’])(1\d|20)(\d)0(?:['’]?s)\b/gu, (m) => (m[2] === '0' ? (m[1] === '20' ? '2 thousands' : `${m[1]} hundreds`) : `${m[1]} ${DECADES[Number(m[2])]}`)],
    [/(?<![\p{L}\p{N}])['’]?([1-9])0(?:['’]?s)\b/gu, (m) => DECADES[Number(m[1])]!],
    [/(?<![\p{L}\p{N}.,])(1\d{3})\s?[-–]\s?(1\d{3}|\d\d)(?![\p{N}]|[.,]\d)/gu, (m) => `${yearSaid(Number(m[1]))} to ${m[2]!.length === 2 ? yearSaid(Math.floor(Number(m[1]) / 100) * 100 + Number(m[2])) : yearSaid(Number(m[2]))}`],
    [new RegExp(String.raw`(?<=(?:\b(?:[Ii]n|[Ss]ince|[Ff]rom|[Uu]ntil|till|[Bb]efore|[Aa]fter|[Dd]uring|circa|early|late|mid|year|${MONTH})|\d(?:st|nd|rd|th),?)[\s-]+)(1\d{3})(?![\p{N}]|[.,]\d|\s*%)`, 'gu'), (m) => yearSaid(Number(m[1]))],
    // Times: "10:00" was "ten zero zero", "10:05" "ten zero five".
    [/(?<![\p{N}:.])(\d{1,2}):0(\d)(?![\p{N}]|:\d)(?=(\s?(?:[ap]\.?m\b\.?|[AP]\.?M\b\.?))?)/gu, (m) => {
      const [hour, minute] = [Number(m[1]), Number(m[2])];
      if (hour > 24) return m[0];
      return minute ? `${m[1]} oh ${minute}` : m[3] ? m[1]! : `${m[1]} o'clock`;
    }],
    // Ranges: "5-10" was "five dash ten", "5–10" "five ten".
    rangeRewrite('to', String.raw`\bo'clock`),
    // Units: "10 kg" was "ten K G", "5 ft" "five F T", "16GB" "sixteen G B", "25°C" "twenty five degrees C".
    unitsRewrite(UNITS),
    // Scales: "1.5M users" was "one point five M users", "2B" "two B", "3.2bn" "three point two B N".
    [new RegExp(String.raw`(?<=(?<![\p{L}\p{N}.,$€£])${NUMBER})\s?(M|B|bn)(?![\p{L}\p{N}])`, 'gu'), (m) => ` ${SCALES[m[1]!]}`],
    // Fractions and ratings: "3/4" was "three slash four", "4/5 stars" "four slash five stars".
    [/(?<![\p{L}\p{N}/.,])([1-9]|10)\/([2-9]|10)(?![\p{N}/]|[.,]\d)/gu, (m) => {
      const [n, d] = [Number(m[1]), Number(m[2])];
      const words = FRACTIONS[d];
      if (words && n < d) return `${n} ${n === 1 ? words[0] : words[1]}`;
      return (d === 5 || d === 10) && n <= d ? `${n} out of ${d}` : m[0];
    }],
    [/\b24\/7\b/gu, () => '24 7'],
    // Words around a slash: "and/or" was "and slash or", "w/o" "double-u slash O".
    [/(?<![\p{L}\p{N}])[Ww]\/[Oo](?![\p{L}\p{N}])/gu, () => 'without'],
    [/(?<![\p{L}\p{N}])[Ww]\/(?=\s)/gu, () => 'with'],
    [/(?<=(?<![\p{L}\p{N}.:/@-])(\p{L}[\p{L}\p{N}]*))\/(?=(\p{L}[\p{L}\p{N}]*)(?![\p{L}\p{N}]|[/.:@]\p{L}))/gu, (m) => (OR_PAIRS.has(`${m[1]}/${m[2]}`.toLowerCase()) ? ' or ' : ' ')],
    [/(?<=\d)x(?=[\s,.;:!?]|$)/gu, () => ' times'],
    // "5x5" was "five ex five", "x10" "ex ten".
    [/(?<=(?<![\p{L}\p{N}.,])\d+)x(?=\d+(?![\p{L}\p{N}]))/gu, () => ' by '],
    [/(?<![\p{L}\p{N}])x(?=\d+(?![\p{L}\p{N}.,]))/gu, () => 'times '],
    // Ratios: "16:9" was "sixteen colon nine". The app's aspect ratios are said "by" ("9:16" is
    // no time here); other ratios "to" ("3:1"; a time's minutes have two digits).
    [new RegExp(String.raw`(?<![\p{N}:.,])(?:${alternation(ASPECT_RATIOS)})(?![\p{N}:])`, 'gu'), (m) => m[0].replace(':', ' by ')],
    [/(?<![\p{N}:.,])(\d{1,2}):(\d)(?![\p{N}:])/gu, (m) => `${m[1]} to ${m[2]}`],
    [/(?<=\s)→(?=\s)/gu, () => 'to'],
    romanRewrite(COUNTED, (n) => `the ${ordinal(n)}`),
    [/(?<=\p{Lu}[\p{L}'’-]*\s+)(Jr|Sr)(?:\.(?=\s*[\p{Ll},]))?(?=[.,\s]|$)/gu, (m) => (m[1] === 'Jr' ? 'Junior' : 'Senior')],
    [/~(?=\s*\d)/gu, () => 'about '],
    [/(?<=^|\s)#(?=\d)/gu, () => 'number '],
    [/(?<=^|\s)#(?=\p{L})/gu, () => ''],
  ];
}

const AMERICAN = build(true);
const BRITISH = build(false);

/** The rewrites of an English espeak voice: American English writes the month first in "03/04/2026". */
export function englishRewrites(espeakVoice: string): Rewrite[] {
  return espeakVoice.startsWith('en-us') ? AMERICAN : BRITISH;
}
