// What an English voice is given for the writings espeak read wrongly (dates, years, decades,
// times, ranges, amounts in cents, units, scales, fractions, slashes, abbreviations), what is left
// as written because it is no such writing, and the way back from espeak's positions to the
// script's. What espeak then says is checked through its phonemes in speech.test.ts.
import { describe, expect, it } from 'vitest';
import { espeakText } from '../speech/espeak-text.js';

const given = (text: string, voice = 'en-us') => espeakText(text, voice).text;

describe('English text for a voice', () => {
  it.each([
    ['It was 03/04/2026.', 'It was March 4th, 2026.'],
    ['It was 25/12/2026.', 'It was December 25th, 2026.'], // a day over 12 tells the order
    ['On 2026-11-23 we met.', 'On November 23rd, 2026 we met.'],
    ['On 03/04/26, ok.', 'On March 4th, 2026, ok.'],
    ['Jan. 5 and Dec 1, 1990.', 'January 5th and December 1st, 19 90.'],
    ['On 4 March 2026 and the 21st of May.', 'On 4th of March 2026 and the 21st of May.'],
    ['In 1990, 1905 and 1900.', 'In 19 90, 1905 and 1900.'], // a year only where one is meant
    ['Since 1905, c. 1900.', 'Since 19 oh 5, circa 19 hundred.'],
    ['From 1990-1995 and 1990-95.', 'From 19 90 to 19 95 and 19 90 to 19 95.'],
    ["The 1990s, '80s, 80s, 2000s, 2010s and 1800s.", 'The 19 nineties, eighties, eighties, 2 thousands, 20 tens and 18 hundreds.'],
    ['It costs $1.50, $0.99, $100.00, £0.75, €1.01 or $1,000.50.', 'It costs 1 dollar and 50 cents, 99 cents, 100 dollars, 75 pence, 1 euro and 1 cent or 1,000 dollars and 50 cents.'],
    ['We raised $5-10M and $5-$10.', 'We raised 5 to 10 million dollars and 5 to 10 dollars.'],
    ['At 10:00, 10:05, 10:00 am or 10:00-11:00.', "At 10 o'clock, 10 oh 5, 10 am or 10 o'clock to 11 o'clock."],
    ['Read pages 5-10 in 2-3 days, 9–5, 10-15%.', 'Read pages 5 to 10 in 2 to 3 days, 9 to 5, 10 to 15%.'],
    ['Drive 60 km/h for 2 hrs and 1 min in 25°C, 1 ft or 5ft.', 'Drive 60 kilometers per hour for 2 hours and 1 minute in 25 degrees Celsius, 1 foot or 5 feet.'],
    ['We have 1.5M users, 2B views, 3.2bn and 16GB.', 'We have 1.5 million users, 2 billion views, 3.2 billion and 16 gigabytes.'],
    ['Add 1/2 cup and 3/4, rated 4/5 or 8/10.', 'Add 1 half cup and 3 quarters, rated 4 out of 5 or 8 out of 10.'],
    ['UX/UI and/or he/she w/o code w/ care.', 'UX UI and or he or she without code with care.'],
    ['See Fig. 3 on p. 5, pp. 5-10, approx. 5, approx. the same, No.5.', 'See figure 3 on page 5, pages 5 to 10, approximately 5, approximately the same, number 5.'],
    ['Climb Mt. Fuji or Mt Etna with Lt. Dan and Prof. Smith, i.e., today.', 'Climb Mount Fuji or Mount Etna with Lieutenant Dan and Professor Smith, that is, today.'],
    ['After World War II, Henry VIII, Elizabeth II and Super Bowl LVIII.', 'After World War 2, Henry the 8th, Elizabeth the 2nd and Super Bowl 58.'],
    ['Shot in 16:9, 9:16 or 4:5, a 3:1 ratio, a 5x5 grid, x10 zoom, A → B.', 'Shot in 16 by 9, 9 by 16 or 4 by 5, a 3 to 1 ratio, a 5 by 5 grid, times 10 zoom, A to B.'],
    ['Martin Luther King Jr. said it. John Smith Sr., then.', 'Martin Luther King Junior said it. John Smith Senior, then.'],
  ])('says %j as %j', (script, said) => {
    expect(given(script)).toBe(said);
  });

  it('says dates in the order of British English in a British voice', () => {
    expect(given('It was 03/04/2026, on 2026-11-23.', 'en')).toBe('It was the 3rd of April 2026, on the 23rd of November 2026.');
    expect(given('It was 12/25/2026.', 'en')).toBe('It was the 25th of December 2026.');
  });

  it.each([
    'Call 555-1234 or 020-7946 now.', // phone numbers, not ranges
    'COVID-19 and GPT-4 in Gen Z, a B2B firm, size XL, Mac OS X.',
    'I said VI, not IIII, at 9:30.',
    'Version 2.1.13 and v2.1.',
    '9/11 and 1/20 and 12/25.',
    'Visit https://x.ai/docs or example.com/about today.',
    '1990 was great.', // no year meant for certain: left as espeak reads numbers
    'No. Not now.',
    'It is 13/13/2026.',
  ])('leaves %j as written', (script) => {
    expect(given(script)).toBe(script);
  });

  it('maps every word said for a writing to its caption word, and the words after it to theirs', () => {
    const script = 'On 03/04/2026 🎉 we paid $1.50 for 2 hrs.';
    const text = espeakText(script, 'en-us');
    expect(text.text).toBe('On March 4th, 2026 🎉 we paid 1 dollar and 50 cents for 2 hours.');
    const codePoint = (s: string, part: string) => Array.from(s.slice(0, s.indexOf(part))).length;
    const at = (part: string) => text.scriptPosition(codePoint(text.text, part) + 1) - 1;
    expect(at('March')).toBe(codePoint(script, '03/04'));
    expect(at('2026')).toBe(codePoint(script, '03/04')); // the whole date is one caption word
    expect(at('we')).toBe(codePoint(script, 'we'));
    expect(at('cents')).toBe(codePoint(script, '$1.50'));
    expect(at('for')).toBe(codePoint(script, 'for'));
    expect(at('hours')).toBe(codePoint(script, 'hrs'));
  });

  it('applies to English voices only', () => {
    expect(given('Ask Mr. Smith about the 1990s.', 'de')).toBe('Ask Mr. Smith about the 1990s.');
  });
});
