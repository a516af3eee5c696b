import { AGENT_DISCLOSURE, AGENT_LINES, agentGoodbye, agentGreeting } from '../spoken/agent-lines.js';
import type { LanguageCode } from './languages.js';

// The agent's fixed lines in every language a caller may be answered in, written here by
// the project, never by the model at call time: the disclosure, the admission of not knowing
// and the voicemail offer must be said the same, correct way every time. English is
// dialogue/spoken/agent-lines.ts itself; a new English line fails the typecheck here until
// it is written for every language (and fixed-lines.test.ts checks each is there and in
// its language's script).

type AgentLineKey = keyof typeof AGENT_LINES;

export interface FixedLines {
  lines: Readonly<Record<AgentLineKey, string>>;
  /** The greeting, with the disclosure (automated assistant, call recorded), for a business name or none. */
  greeting(businessName: string | null | undefined): string;
  /**
   * The greeting's disclosure sentence alone (automated assistant, call recorded): said after
   * an owner's own recorded greeting line, which the project cannot check says it.
   */
  disclosure: string;
  goodbye(businessName: string | null | undefined): string;
  /** Said, in the language asked for, when a caller asks for it ("Do you speak Polish?"). */
  switched: string;
}

const named = (n: string | null | undefined) => n?.trim() || undefined;

const TRANSLATED: Readonly<Record<Exclude<LanguageCode, 'en'>, FixedLines>> = {
  pl: {
    lines: {
      notAnswered: 'Przepraszam, nie mam tej informacji. Mogę przyjąć wiadomość, a zespół oddzwoni. Czy chce Pan lub Pani zostawić wiadomość?',
      human: 'Niestety nie mogę teraz nikogo połączyć, ale mogę przyjąć wiadomość i ktoś oddzwoni. Co mam przekazać?',
      takeMessage: 'Oczywiście. Proszę powiedzieć swoją wiadomość i podać imię.',
      urgentMessage: 'Rozumiem, że to pilne. Proszę podać imię, numer telefonu i co się stało, a natychmiast to przekażę.',
      afterTransfer: 'Czy mogę zamiast tego przyjąć wiadomość? Proszę podać imię i w jakiej sprawie, a ktoś oddzwoni.',
      messageTaken: 'Dziękuję, przekażę to. Czy mogę pomóc w czymś jeszcze?',
      silencePrompt: 'Czy jest Pan lub Pani jeszcze na linii? W czym mogę pomóc?',
      silenceGoodbye: 'Nic nie słyszę, więc zakończę teraz rozmowę. Proszę zadzwonić ponownie w dowolnym momencie. Do widzenia.',
      engineFailure: 'Przepraszam, mam teraz problem z odpowiadaniem na pytania. Proszę po sygnale zostawić imię i wiadomość, a zespół oddzwoni.',
      voicemailThanks: 'Dziękuję. Wiadomość została nagrana. Do widzenia.',
      allBusy: 'Wszyscy asystenci są zajęci. Proszę zostawić wiadomość po sygnale.',
      holding: 'Chwileczkę.',
      didNotCatch: 'Przepraszam, słabo było słychać. Czy można powtórzyć?',
    },
    greeting: (n) => `${named(n) ? `Dzień dobry, tu ${named(n)}.` : 'Dzień dobry, dziękujemy za telefon.'} Jestem automatycznym asystentem, a ta rozmowa jest nagrywana. W czym mogę pomóc?`,
    disclosure: 'Jestem automatycznym asystentem, a ta rozmowa jest nagrywana.',
    goodbye: (n) => (named(n) ? `Dziękujemy za telefon do ${named(n)}. Do widzenia.` : 'Dziękujemy za telefon. Do widzenia.'),
    switched: 'Oczywiście, mówię po polsku. W czym mogę pomóc?',
  },
  ro: {
    lines: {
      notAnswered: 'Îmi pare rău, nu am această informație. Pot să preiau un mesaj, iar echipa vă va contacta. Doriți să lăsați un mesaj?',
      human: 'Din păcate nu vă pot face legătura cu cineva acum, dar pot să preiau un mesaj și veți fi contactat. Ce doriți să transmit?',
      takeMessage: 'Sigur. Vă rog să spuneți mesajul și numele dumneavoastră.',
      urgentMessage: 'Înțeleg că este urgent. Vă rog să-mi spuneți numele, numărul de telefon și ce s-a întâmplat, și voi transmite imediat.',
      afterTransfer: 'Pot să preiau un mesaj în schimb? Vă rog să-mi spuneți numele și despre ce este vorba, și veți fi contactat.',
      messageTaken: 'Vă mulțumesc, voi transmite mesajul. Vă mai pot ajuta cu ceva?',
      silencePrompt: 'Mai sunteți la telefon? Cu ce vă pot ajuta?',
      silenceGoodbye: 'Nu aud nimic, așa că voi încheia apelul acum. Vă rugăm să sunați oricând. La revedere.',
      engineFailure: 'Îmi pare rău, am o problemă în a răspunde la întrebări acum. Vă rog să lăsați numele și mesajul după semnal, iar echipa vă va contacta.',
      voicemailThanks: 'Vă mulțumesc. Mesajul a fost înregistrat. La revedere.',
      allBusy: 'Toți asistenții sunt ocupați, vă rugăm să lăsați un mesaj după semnal.',
      holding: 'Un moment, vă rog.',
      didNotCatch: 'Scuzați, nu am înțeles. Puteți repeta?',
    },
    greeting: (n) => `${named(n) ? `Bună ziua, ați sunat la ${named(n)}.` : 'Bună ziua, vă mulțumim pentru apel.'} Sunt un asistent automat, iar acest apel este înregistrat. Cu ce vă pot ajuta?`,
    disclosure: 'Sunt un asistent automat, iar acest apel este înregistrat.',
    goodbye: (n) => (named(n) ? `Vă mulțumim că ați sunat la ${named(n)}. La revedere.` : 'Vă mulțumim pentru apel. La revedere.'),
    switched: 'Sigur, vorbesc românește. Cu ce vă pot ajuta?',
  },
  pt: {
    lines: {
      notAnswered: 'Peço desculpa, não tenho essa informação. Posso anotar uma mensagem para que a equipa entre em contacto consigo. Quer deixar uma mensagem?',
      human: 'Lamento, mas não posso passar a chamada a ninguém neste momento. Posso anotar uma mensagem e entrarão em contacto consigo. O que quer que eu transmita?',
      takeMessage: 'Com certeza. Diga a sua mensagem, por favor, e inclua o seu nome.',
      urgentMessage: 'Compreendo que é urgente. Diga-me o seu nome, o seu número e o que aconteceu, e transmito de imediato.',
      afterTransfer: 'Posso anotar uma mensagem em vez disso? Diga-me o seu nome e o assunto, e entrarão em contacto consigo.',
      messageTaken: 'Obrigado, vou transmitir. Posso ajudar em mais alguma coisa?',
      silencePrompt: 'Ainda está em linha? Em que posso ajudar?',
      silenceGoodbye: 'Não consigo ouvir nada, por isso vou terminar a chamada. Ligue quando quiser. Adeus.',
      engineFailure: 'Peço desculpa, estou com dificuldades em responder a perguntas neste momento. Deixe o seu nome e mensagem depois do sinal, e a equipa entrará em contacto consigo.',
      voicemailThanks: 'Obrigado. A sua mensagem foi gravada. Adeus.',
      allBusy: 'Todos os nossos assistentes estão ocupados. Deixe uma mensagem depois do sinal, por favor.',
      holding: 'Um momento, por favor.',
      didNotCatch: 'Desculpe, não percebi. Pode repetir?',
    },
    greeting: (n) => `${named(n) ? `Olá, ligou para ${named(n)}.` : 'Olá, obrigado por ligar.'} Sou um assistente automático e esta chamada está a ser gravada. Em que posso ajudar?`,
    disclosure: 'Sou um assistente automático e esta chamada está a ser gravada.',
    goodbye: (n) => (named(n) ? `Obrigado por ligar para ${named(n)}. Adeus.` : 'Obrigado por ligar. Adeus.'),
    switched: 'Com certeza, falo português. Em que posso ajudar?',
  },
  es: {
    lines: {
      notAnswered: 'Lo siento, no tengo esa información. Puedo tomar un mensaje para que el equipo se ponga en contacto con usted. ¿Quiere dejar uno?',
      human: 'Lo siento, ahora mismo no puedo pasarle con nadie, pero puedo tomar un mensaje y le devolverán la llamada. ¿Qué quiere que les diga?',
      takeMessage: 'Por supuesto. Diga su mensaje, por favor, e incluya su nombre.',
      urgentMessage: 'Entiendo que es urgente. Dígame su nombre, su número y lo que ha pasado, y lo transmitiré enseguida.',
      afterTransfer: '¿Puedo tomar un mensaje en su lugar? Dígame su nombre y el motivo de su llamada, y le devolverán la llamada.',
      messageTaken: 'Gracias, lo transmitiré. ¿Puedo ayudarle en algo más?',
      silencePrompt: '¿Sigue ahí? ¿En qué puedo ayudarle?',
      silenceGoodbye: 'No oigo nada, así que voy a terminar la llamada. Llame cuando quiera. Adiós.',
      engineFailure: 'Lo siento, ahora mismo tengo problemas para responder preguntas. Deje su nombre y su mensaje después de la señal, y el equipo se pondrá en contacto con usted.',
      voicemailThanks: 'Gracias. Su mensaje ha quedado grabado. Adiós.',
      allBusy: 'Todos nuestros asistentes están ocupados. Deje un mensaje después de la señal, por favor.',
      holding: 'Un momento, por favor.',
      didNotCatch: 'Perdone, no le he entendido. ¿Puede repetirlo?',
    },
    greeting: (n) => `${named(n) ? `Hola, ha llamado a ${named(n)}.` : 'Hola, gracias por llamar.'} Soy un asistente automático y esta llamada se está grabando. ¿En qué puedo ayudarle?`,
    disclosure: 'Soy un asistente automático y esta llamada se está grabando.',
    goodbye: (n) => (named(n) ? `Gracias por llamar a ${named(n)}. Adiós.` : 'Gracias por llamar. Adiós.'),
    switched: 'Por supuesto, hablo español. ¿En qué puedo ayudarle?',
  },
  cy: {
    lines: {
      notAnswered: "Mae'n ddrwg gen i, does gen i mo'r wybodaeth honno. Galla i gymryd neges er mwyn i'r tîm gysylltu â chi. Hoffech chi adael neges?",
      human: "Mae arna i ofn na alla i eich trosglwyddo i rywun ar hyn o bryd, ond galla i gymryd neges a byddan nhw'n cysylltu â chi. Beth hoffech chi i mi ei ddweud wrthyn nhw?",
      takeMessage: "Wrth gwrs. Ewch ymlaen â'ch neges, a dywedwch eich enw.",
      urgentMessage: "Rwy'n deall ei fod yn fater brys. Dywedwch eich enw, eich rhif a beth sydd wedi digwydd, a bydda i'n ei drosglwyddo ar unwaith.",
      afterTransfer: "Alla i gymryd neges yn lle hynny? Dywedwch eich enw a beth yw'r mater, a byddan nhw'n cysylltu â chi.",
      messageTaken: "Diolch, bydda i'n trosglwyddo hynny. Oes unrhyw beth arall y galla i helpu ag ef?",
      silencePrompt: "Ydych chi'n dal yno? Sut galla i helpu?",
      silenceGoodbye: "Dw i ddim yn clywed dim byd, felly bydda i'n dod â'r alwad i ben nawr. Croeso i chi ffonio eto unrhyw bryd. Hwyl fawr.",
      engineFailure: "Mae'n ddrwg gen i, rwy'n cael trafferth ateb cwestiynau ar hyn o bryd. Gadewch eich enw a'ch neges ar ôl y dôn, a bydd y tîm yn cysylltu â chi.",
      voicemailThanks: "Diolch. Mae eich neges wedi'i recordio. Hwyl fawr.",
      allBusy: 'Mae ein holl gynorthwywyr yn brysur, gadewch neges ar ôl y dôn os gwelwch yn dda.',
      holding: 'Un eiliad, os gwelwch yn dda.',
      didNotCatch: "Mae'n ddrwg gen i, chlywais i mo hynny. Allech chi ei ddweud eto?",
    },
    greeting: (n) =>
      `${named(n) ? `Helo, rydych chi wedi cyrraedd ${named(n)}.` : 'Helo, diolch am ffonio.'} Cynorthwyydd awtomatig ydw i, ac mae'r alwad hon yn cael ei recordio. Sut galla i eich helpu chi heddiw?`,
    disclosure: "Cynorthwyydd awtomatig ydw i, ac mae'r alwad hon yn cael ei recordio.",
    goodbye: (n) => (named(n) ? `Diolch am ffonio ${named(n)}. Hwyl fawr.` : 'Diolch am ffonio. Hwyl fawr.'),
    switched: 'Wrth gwrs, galla i siarad Cymraeg. Sut galla i helpu?',
  },
  ur: {
    lines: {
      notAnswered: 'معذرت، میرے پاس یہ معلومات نہیں ہیں۔ میں پیغام لے سکتا ہوں تاکہ ٹیم آپ سے رابطہ کرے۔ کیا آپ پیغام چھوڑنا چاہیں گے؟',
      human: 'معذرت، میں ابھی آپ کی کسی سے بات نہیں کروا سکتا، لیکن میں پیغام لے سکتا ہوں اور وہ آپ سے رابطہ کریں گے۔ میں کیا پیغام پہنچاؤں؟',
      takeMessage: 'ضرور۔ براہ کرم اپنا پیغام اور اپنا نام بتائیں۔',
      urgentMessage: 'میں سمجھتا ہوں کہ یہ فوری معاملہ ہے۔ براہ کرم اپنا نام، اپنا نمبر اور کیا ہوا ہے بتائیں، میں فوراً آگے پہنچا دوں گا۔',
      afterTransfer: 'کیا میں اس کے بجائے پیغام لے لوں؟ براہ کرم اپنا نام اور بات کیا ہے بتائیں، وہ آپ سے رابطہ کریں گے۔',
      messageTaken: 'شکریہ، میں یہ پیغام پہنچا دوں گا۔ کیا میں کسی اور چیز میں مدد کر سکتا ہوں؟',
      silencePrompt: 'کیا آپ لائن پر ہیں؟ میں کیا مدد کر سکتا ہوں؟',
      silenceGoodbye: 'مجھے کچھ سنائی نہیں دے رہا، اس لیے میں اب کال ختم کر رہا ہوں۔ آپ کسی بھی وقت دوبارہ کال کر سکتے ہیں۔ خدا حافظ۔',
      engineFailure: 'معذرت، مجھے ابھی سوالوں کے جواب دینے میں مشکل ہو رہی ہے۔ براہ کرم ٹون کے بعد اپنا نام اور پیغام چھوڑیں، ٹیم آپ سے رابطہ کرے گی۔',
      voicemailThanks: 'شکریہ۔ آپ کا پیغام ریکارڈ ہو گیا ہے۔ خدا حافظ۔',
      allBusy: 'ہمارے تمام اسسٹنٹ مصروف ہیں، براہ کرم ٹون کے بعد پیغام چھوڑیں۔',
      holding: 'ایک لمحہ انتظار کریں۔',
      didNotCatch: 'معذرت، میں سمجھ نہیں سکا۔ کیا آپ دوبارہ کہہ سکتے ہیں؟',
    },
    greeting: (n) =>
      `${named(n) ? `السلام علیکم، آپ نے ${named(n)} کو کال کی ہے۔` : 'السلام علیکم، کال کرنے کا شکریہ۔'} میں ایک خودکار اسسٹنٹ ہوں، اور یہ کال ریکارڈ کی جا رہی ہے۔ میں آپ کی کیا مدد کر سکتا ہوں؟`,
    disclosure: 'میں ایک خودکار اسسٹنٹ ہوں، اور یہ کال ریکارڈ کی جا رہی ہے۔',
    goodbye: (n) => (named(n) ? `${named(n)} کو کال کرنے کا شکریہ۔ خدا حافظ۔` : 'کال کرنے کا شکریہ۔ خدا حافظ۔'),
    switched: 'جی ضرور، میں اردو بولتا ہوں۔ میں آپ کی کیا مدد کر سکتا ہوں؟',
  },
  pa: {
    lines: {
      notAnswered: 'ਮਾਫ਼ ਕਰਨਾ, ਮੇਰੇ ਕੋਲ ਇਹ ਜਾਣਕਾਰੀ ਨਹੀਂ ਹੈ। ਮੈਂ ਸੁਨੇਹਾ ਲੈ ਸਕਦਾ ਹਾਂ ਤਾਂ ਜੋ ਟੀਮ ਤੁਹਾਡੇ ਨਾਲ ਸੰਪਰਕ ਕਰੇ। ਕੀ ਤੁਸੀਂ ਸੁਨੇਹਾ ਛੱਡਣਾ ਚਾਹੋਗੇ?',
      human: 'ਮਾਫ਼ ਕਰਨਾ, ਮੈਂ ਹੁਣੇ ਤੁਹਾਡੀ ਕਿਸੇ ਨਾਲ ਗੱਲ ਨਹੀਂ ਕਰਵਾ ਸਕਦਾ, ਪਰ ਮੈਂ ਸੁਨੇਹਾ ਲੈ ਸਕਦਾ ਹਾਂ ਅਤੇ ਉਹ ਤੁਹਾਡੇ ਨਾਲ ਸੰਪਰਕ ਕਰਨਗੇ। ਮੈਂ ਕੀ ਸੁਨੇਹਾ ਦੇਵਾਂ?',
      takeMessage: 'ਜ਼ਰੂਰ। ਕਿਰਪਾ ਕਰਕੇ ਆਪਣਾ ਸੁਨੇਹਾ ਅਤੇ ਆਪਣਾ ਨਾਮ ਦੱਸੋ।',
      urgentMessage: 'ਮੈਂ ਸਮਝਦਾ ਹਾਂ ਕਿ ਇਹ ਜ਼ਰੂਰੀ ਹੈ। ਕਿਰਪਾ ਕਰਕੇ ਆਪਣਾ ਨਾਮ, ਆਪਣਾ ਨੰਬਰ ਅਤੇ ਕੀ ਹੋਇਆ ਹੈ ਦੱਸੋ, ਮੈਂ ਤੁਰੰਤ ਅੱਗੇ ਪਹੁੰਚਾ ਦਿਆਂਗਾ।',
      afterTransfer: 'ਕੀ ਮੈਂ ਇਸ ਦੀ ਬਜਾਏ ਸੁਨੇਹਾ ਲੈ ਲਵਾਂ? ਕਿਰਪਾ ਕਰਕੇ ਆਪਣਾ ਨਾਮ ਅਤੇ ਗੱਲ ਕੀ ਹੈ ਦੱਸੋ, ਉਹ ਤੁਹਾਡੇ ਨਾਲ ਸੰਪਰਕ ਕਰਨਗੇ।',
      messageTaken: 'ਧੰਨਵਾਦ, ਮੈਂ ਇਹ ਸੁਨੇਹਾ ਪਹੁੰਚਾ ਦਿਆਂਗਾ। ਕੀ ਮੈਂ ਕਿਸੇ ਹੋਰ ਚੀਜ਼ ਵਿੱਚ ਮਦਦ ਕਰ ਸਕਦਾ ਹਾਂ?',
      silencePrompt: 'ਕੀ ਤੁਸੀਂ ਲਾਈਨ ਉੱਤੇ ਹੋ? ਮੈਂ ਕੀ ਮਦਦ ਕਰ ਸਕਦਾ ਹਾਂ?',
      silenceGoodbye: 'ਮੈਨੂੰ ਕੁਝ ਸੁਣਾਈ ਨਹੀਂ ਦੇ ਰਿਹਾ, ਇਸ ਲਈ ਮੈਂ ਹੁਣ ਕਾਲ ਖ਼ਤਮ ਕਰ ਰਿਹਾ ਹਾਂ। ਤੁਸੀਂ ਕਦੇ ਵੀ ਦੁਬਾਰਾ ਕਾਲ ਕਰ ਸਕਦੇ ਹੋ। ਸਤ ਸ੍ਰੀ ਅਕਾਲ।',
      engineFailure: 'ਮਾਫ਼ ਕਰਨਾ, ਮੈਨੂੰ ਹੁਣੇ ਸਵਾਲਾਂ ਦੇ ਜਵਾਬ ਦੇਣ ਵਿੱਚ ਮੁਸ਼ਕਲ ਆ ਰਹੀ ਹੈ। ਕਿਰਪਾ ਕਰਕੇ ਟੋਨ ਤੋਂ ਬਾਅਦ ਆਪਣਾ ਨਾਮ ਅਤੇ ਸੁਨੇਹਾ ਛੱਡੋ, ਟੀਮ ਤੁਹਾਡੇ ਨਾਲ ਸੰਪਰਕ ਕਰੇਗੀ।',
      voicemailThanks: 'ਧੰਨਵਾਦ। ਤੁਹਾਡਾ ਸੁਨੇਹਾ ਰਿਕਾਰਡ ਹੋ ਗਿਆ ਹੈ। ਸਤ ਸ੍ਰੀ ਅਕਾਲ।',
      allBusy: 'ਸਾਡੇ ਸਾਰੇ ਸਹਾਇਕ ਰੁੱਝੇ ਹੋਏ ਹਨ, ਕਿਰਪਾ ਕਰਕੇ ਟੋਨ ਤੋਂ ਬਾਅਦ ਸੁਨੇਹਾ ਛੱਡੋ।',
      holding: 'ਇੱਕ ਪਲ ਰੁਕੋ ਜੀ।',
      didNotCatch: 'ਮਾਫ਼ ਕਰਨਾ, ਮੈਨੂੰ ਸਮਝ ਨਹੀਂ ਆਇਆ। ਕੀ ਤੁਸੀਂ ਦੁਬਾਰਾ ਦੱਸ ਸਕਦੇ ਹੋ?',
    },
    greeting: (n) =>
      `${named(n) ? `ਸਤ ਸ੍ਰੀ ਅਕਾਲ, ਤੁਸੀਂ ${named(n)} ਨੂੰ ਕਾਲ ਕੀਤੀ ਹੈ।` : 'ਸਤ ਸ੍ਰੀ ਅਕਾਲ, ਕਾਲ ਕਰਨ ਲਈ ਧੰਨਵਾਦ।'} ਮੈਂ ਇੱਕ ਆਟੋਮੈਟਿਕ ਸਹਾਇਕ ਹਾਂ, ਅਤੇ ਇਹ ਕਾਲ ਰਿਕਾਰਡ ਕੀਤੀ ਜਾ ਰਹੀ ਹੈ। ਮੈਂ ਤੁਹਾਡੀ ਕੀ ਮਦਦ ਕਰ ਸਕਦਾ ਹਾਂ?`,
    disclosure: 'ਮੈਂ ਇੱਕ ਆਟੋਮੈਟਿਕ ਸਹਾਇਕ ਹਾਂ, ਅਤੇ ਇਹ ਕਾਲ ਰਿਕਾਰਡ ਕੀਤੀ ਜਾ ਰਹੀ ਹੈ।',
    goodbye: (n) => (named(n) ? `${named(n)} ਨੂੰ ਕਾਲ ਕਰਨ ਲਈ ਧੰਨਵਾਦ। ਸਤ ਸ੍ਰੀ ਅਕਾਲ।` : 'ਕਾਲ ਕਰਨ ਲਈ ਧੰਨਵਾਦ। ਸਤ ਸ੍ਰੀ ਅਕਾਲ।'),
    switched: 'ਜੀ ਜ਼ਰੂਰ, ਮੈਂ ਪੰਜਾਬੀ ਬੋਲਦਾ ਹਾਂ। ਮੈਂ ਤੁਹਾਡੀ ਕੀ ਮਦਦ ਕਰ ਸਕਦਾ ਹਾਂ?',
  },
};

const ENGLISH: FixedLines = { lines: AGENT_LINES, greeting: agentGreeting, disclosure: AGENT_DISCLOSURE, goodbye: agentGoodbye, switched: "Of course, I'll speak English. How can I help?" };

/** The fixed lines a caller answered in `language` hears. */
export function fixedLines(language: LanguageCode): FixedLines {
  return language === 'en' ? ENGLISH : TRANSLATED[language];
}
