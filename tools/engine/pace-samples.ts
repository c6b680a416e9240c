// Sample paragraphs each voice is measured on (voice-pace.ts), per language: short sentences and
// long ones, numbers, so that both the pace and the pause per sentence can be fitted. The tests
// check the estimate on other paragraphs (server/engine/test/pace.test.ts).
export const PACE_SAMPLES: Record<string, string[]> = {
  en: [
    'Welcome back. Here is what changed. The new studio is open. It is quiet, bright and close to the station. We moved in on Monday.',
    'Over the last three months our small team rebuilt the way videos are made, from the first draft of a script to the final export, and the result is a tool that feels fast even on an older laptop.',
    'Sales grew by 12 percent in 2025, while costs stayed flat, which means that for the first time every product line paid for itself. Next year we want to do the same with half the paperwork.',
  ],
  de: [
    'Willkommen zurück. Hier sind die Neuigkeiten. Das neue Studio ist fertig. Es ist hell und ruhig. Wir sind am Montag eingezogen.',
    'In den letzten drei Monaten hat unser kleines Team den ganzen Ablauf neu gebaut, vom ersten Entwurf eines Textes bis zum fertigen Video, und das Ergebnis fühlt sich auch auf älteren Rechnern schnell an.',
    'Der Umsatz stieg 2025 um 12 Prozent, während die Kosten gleich blieben. Damit trägt sich zum ersten Mal jede Produktlinie selbst, und im nächsten Jahr wollen wir das mit weniger Verwaltung schaffen.',
  ],
  fr: [
    'Bienvenue. Voici les nouvelles. Le studio est prêt. Il est clair et calme. Nous sommes arrivés lundi.',
    'Pendant les trois derniers mois, notre petite équipe a reconstruit toute la chaîne, du premier jet du texte jusqu’à la vidéo finale, et le résultat reste rapide même sur un ordinateur ancien.',
  ],
  es: [
    'Bienvenidos. Estas son las novedades. El estudio está listo. Es luminoso y tranquilo. Llegamos el lunes.',
    'Durante los últimos tres meses nuestro pequeño equipo reconstruyó todo el proceso, desde el primer borrador del guion hasta el vídeo final, y el resultado es rápido incluso en un ordenador antiguo.',
  ],
  it: [
    'Bentornati. Ecco le novità. Lo studio è pronto. È luminoso e tranquillo. Siamo arrivati lunedì.',
    'Negli ultimi tre mesi la nostra piccola squadra ha ricostruito tutto il processo, dalla prima bozza del testo fino al video finale, e il risultato è veloce anche su un computer vecchio.',
  ],
  pt: [
    'Bem-vindos. Estas são as novidades. O estúdio está pronto. É claro e tranquilo. Chegamos na segunda-feira.',
    'Nos últimos três meses a nossa pequena equipe reconstruiu todo o processo, do primeiro rascunho do roteiro até o vídeo final, e o resultado é rápido mesmo num computador antigo.',
  ],
  nl: [
    'Welkom terug. Dit is het nieuws. De nieuwe studio is klaar. Hij is licht en rustig. We zijn maandag verhuisd.',
    'In de afgelopen drie maanden heeft ons kleine team het hele proces opnieuw gebouwd, van de eerste versie van een tekst tot de uiteindelijke video, en het resultaat is snel, zelfs op een oudere laptop.',
  ],
  pl: [
    'Witamy ponownie. Oto nowości. Nowe studio jest gotowe. Jest jasne i ciche. Przenieśliśmy się w poniedziałek.',
    'W ciągu ostatnich trzech miesięcy nasz mały zespół przebudował cały proces, od pierwszej wersji scenariusza aż po gotowy film, a wynik jest szybki nawet na starszym komputerze.',
  ],
  ja: [
    'おかえりなさい。新しいお知らせです。スタジオが完成しました。明るくて静かです。月曜日に引っ越しました。',
    'この三か月の間に、私たちの小さなチームは、台本の最初の下書きから完成した動画まで、作業の流れをすべて作り直しました。古いパソコンでも速く動きます。',
    'きょうは あたらしい せいひんを しょうかいします。みなさん、どうぞ よろしく おねがいします。',
  ],
  zh: [
    '欢迎回来。这是最新消息。新的工作室已经完成了。它明亮又安静。我们星期一搬了进去。',
    '在过去的三个月里，我们的小团队重新设计了整个流程，从剧本的第一份草稿到最终的视频，结果即使在旧电脑上也运行得很快。',
    '二零二五年销售额增长了百分之十二，而成本保持不变，这意味着每条产品线第一次都能自负盈亏。',
  ],
  ar: [
    'مرحبا بكم. هذه آخر الأخبار. الاستوديو الجديد جاهز. إنه مشرق وهادئ. انتقلنا يوم الاثنين.',
    'خلال الأشهر الثلاثة الماضية أعاد فريقنا الصغير بناء العملية كلها، من المسودة الأولى للنص حتى الفيديو النهائي، والنتيجة سريعة حتى على حاسوب قديم.',
  ],
};
