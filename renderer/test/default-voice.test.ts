// A new draft's voice: the best voice that ships with the app in the user's language.
import { describe, expect, it } from 'vitest';
import { defaultVoice, type CatalogVoice } from '../store/catalogs.js';

const voice = (id: string, quality: CatalogVoice['quality'], extra: Partial<CatalogVoice> = {}): CatalogVoice => ({
  id, name: id.split('-')[2]!, locale: id.split('-').slice(0, 2).join('-'), gender: 'female', quality, sampleUrl: `/api/voices/${id}/sample`, ...extra,
});

// Catalog order as shipped: the fast basic voices first, better ones later, a neural pack to download.
const VOICES = [
  voice('en-US-Ava', 'basic'), voice('en-GB-Sonia', 'basic'), voice('de-DE-Katja', 'basic'), voice('fr-FR-Denise', 'basic'), voice('pl-PL-Zofia', 'basic'),
  voice('en-US-Lisa', 'standard'), voice('de-DE-Gabi', 'standard'), voice('fr-FR-Nicole', 'standard'),
  voice('en-US-Amy', 'natural', { downloadBytes: 63_000_000 }),
];
const pick = (languages: string[]) => defaultVoice(VOICES, languages)?.id;

describe('a new draft\'s voice', () => {
  it('is the best-sounding voice of the user\'s language that needs no download', () => {
    expect(pick(['en-US', 'en'])).toBe('en-US-Lisa'); // not Ava (basic), not Amy (a 63 MB download)
    expect(pick(['de-DE'])).toBe('de-DE-Gabi');
    expect(pick(['pl-PL'])).toBe('pl-PL-Zofia');
  });

  it('finds the language without the region, and follows the order of the user\'s languages', () => {
    expect(pick(['fr-CA'])).toBe('fr-FR-Nicole');
    expect(pick(['en-GB'])).toBe('en-GB-Sonia'); // the exact locale before a better voice of another region
    expect(pick(['nl-NL', 'de'])).toBe('de-DE-Gabi');
  });

  it('falls back to American English, then to the first voice', () => {
    expect(pick(['sw-KE'])).toBe('en-US-Lisa');
    expect(pick([])).toBe('en-US-Lisa');
    expect(defaultVoice([voice('ja-JP-Nanami', 'basic')], ['sw'])?.id).toBe('ja-JP-Nanami');
    expect(defaultVoice([], ['en-US'])).toBeNull();
  });
});
