// What a voice says in the voice picker: a line in its own language. Every voice used to read
// the English line, so a German or Japanese voice was heard mangling English, which says nothing
// about how it reads a German or Japanese script.

const LINES: Record<string, (name: string) => string> = {
  en: (name) => `Hi, I'm ${name}. This is how your script will sound, and I hope you like it.`,
  de: (name) => `Hallo, ich bin ${name}. So wird dein Skript klingen, und ich hoffe, es gefällt dir.`,
  fr: (name) => `Bonjour, je suis ${name}. Voici comment votre script va sonner, et j'espère qu'il vous plaira.`,
  es: (name) => `Hola, soy ${name}. Así es como sonará tu guion, y espero que te guste.`,
  it: (name) => `Ciao, sono ${name}. Ecco come suonerà il tuo testo, e spero che ti piaccia.`,
  pt: (name) => `Olá, eu sou ${name}. É assim que o seu roteiro vai soar, e espero que você goste.`,
  nl: (name) => `Hallo, ik ben ${name}. Zo gaat je script klinken, en ik hoop dat je het mooi vindt.`,
  pl: (name) => `Cześć, jestem ${name}. Tak zabrzmi twój scenariusz i mam nadzieję, że ci się spodoba.`,
  // The names are written in Latin letters: a Japanese or Chinese voice would spell them out.
  ja: () => 'こんにちは。あなたの台本は、このように聞こえます。',
  zh: () => '你好。你的脚本听起来会是这样。',
  ar: () => 'مرحبا. هكذا سيبدو النص الذي كتبته، وأتمنى أن يعجبك.',
};

/** The voice picker's sample line for a voice, in the voice's language (English when there is none). */
export function sampleLine(voice: { name: string; locale: string }): string {
  const line = LINES[voice.locale.split('-')[0]!] ?? LINES.en!;
  return line(voice.name);
}
