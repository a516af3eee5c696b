import type { BookableService } from '../agent/booking-desk.js';
import {
  BOOKING_LINES,
  booked,
  cancelled,
  existingBooking,
  kept,
  moved,
  offerTimes,
  readBack,
  whichService,
  type SpokenBooking,
  type SpokenTime,
} from '../spoken/booking-lines.js';
import { spokenNumber } from '../spoken/transfer.js';
import type { LanguageCode } from './languages.js';

// What the agent says while it books (issue 41) in every language a caller may be answered in
// (issue 42), written here by the project like the other fixed lines (fixed-lines.ts). English
// is dialogue/spoken/booking-lines.ts itself, with the desk's own spoken times ("Tuesday the 3rd
// of December at ten o'clock"); a new English line fails the typecheck here until it is written
// for every language. Other languages say the date and time as their locale does
// (Intl.DateTimeFormat, Europe/London, the 24-hour clock, so no "AM" in another script).

type BookingLineKey = keyof typeof BOOKING_LINES;

/** How the agent says each booking line in one language. */
export interface BookingSpeech {
  lines: Readonly<Record<BookingLineKey, string>>;
  /** A time as this language says it, in London. */
  when(slot: SpokenTime): string;
  offerTimes(slots: SpokenTime[]): string;
  whichService(services: Pick<BookableService, 'name'>[]): string;
  readBack(slot: SpokenBooking, name: string, callerNumber: string): string;
  booked(b: SpokenBooking): string;
  moved(b: SpokenBooking): string;
  cancelled(b: SpokenBooking): string;
  kept(b: SpokenBooking): string;
  existingBooking(b: SpokenBooking): string;
}

/** One language's words; `b` is the booking said whole ("<when>, <service>"), lists already joined with its "or". */
interface Templates {
  locale: string;
  /** Between the time and the service's name. */
  comma?: string;
  lines: Readonly<Record<BookingLineKey, string>>;
  offerOne(time: string): string;
  offerMany(times: string): string;
  whichService(names: string): string;
  readBack(b: string, name: string, number: string): string;
  booked(b: string): string;
  moved(b: string): string;
  cancelled(b: string): string;
  kept(b: string): string;
  existing(b: string): string;
}

const TRANSLATED: Readonly<Record<Exclude<LanguageCode, 'en'>, Templates>> = {
  pl: {
    locale: 'pl',
    lines: {
      request: 'Poproszę zespół, żeby uzgodnił z Panem lub Panią termin.',
      requestDetails: 'Proszę podać imię i wszystko, co powinni wiedzieć, a ja to przekażę.',
      askName: 'Czy mogę prosić o imię i nazwisko?',
      askNumber: 'Pod jaki numer najlepiej oddzwonić?',
      badNumber: 'Przepraszam, nie zrozumiałem numeru. Czy można go powtórzyć, cyfra po cyfrze?',
      whichTime: 'Przepraszam, który z tych terminów odpowiada?',
      taken: 'Przepraszam, ten termin został właśnie zajęty.',
      startAgain: 'Nie ma problemu, poszukajmy innego terminu.',
      nothingFree: 'Przykro mi, nie mogę znaleźć na to wolnego terminu.',
    },
    offerOne: (t) => `Mogę zaproponować ${t}. Czy to odpowiada?`,
    offerMany: (t) => `Mogę zaproponować ${t}. Który termin odpowiada?`,
    whichService: (n) => `Co chce Pan lub Pani zarezerwować: ${n}?`,
    readBack: (b, name, number) => `Czyli ${b}, dla ${name}, pod numerem ${number}. Czy mam zarezerwować?`,
    booked: (b) => `Zarezerwowane: ${b}. Czy mogę pomóc w czymś jeszcze?`,
    moved: (b) => `Przeniesione. Nowy termin: ${b}. Czy mogę pomóc w czymś jeszcze?`,
    cancelled: (b) => `Odwołane: ${b}. Czy mogę pomóc w czymś jeszcze?`,
    kept: (b) => `Dobrze, rezerwacja zostaje: ${b}. Czy mogę pomóc w czymś jeszcze?`,
    existing: (b) => `Widzę rezerwację: ${b}. Czy chce ją Pan lub Pani zachować, przenieść czy odwołać?`,
  },
  ro: {
    locale: 'ro',
    lines: {
      request: 'Îi voi ruga să stabilească o oră împreună cu dumneavoastră.',
      requestDetails: 'Vă rog să-mi spuneți numele și orice ar trebui să știe, și voi transmite mai departe.',
      askName: 'Îmi puteți spune numele dumneavoastră, vă rog?',
      askNumber: 'La ce număr vă pot suna înapoi?',
      badNumber: 'Scuzați, nu am înțeles numărul. Îl puteți repeta, cifră cu cifră?',
      whichTime: 'Scuzați, care dintre aceste ore vă convine?',
      taken: 'Îmi pare rău, această oră tocmai a fost ocupată.',
      startAgain: 'Nicio problemă, să găsim altă oră.',
      nothingFree: 'Îmi pare rău, nu găsesc nicio oră liberă pentru asta.',
    },
    offerOne: (t) => `Vă pot oferi ${t}. Vă convine?`,
    offerMany: (t) => `Vă pot oferi ${t}. Care vă convine?`,
    whichService: (n) => `Ce doriți să programați: ${n}?`,
    readBack: (b, name, number) => `Deci ${b}, pentru ${name}, la numărul ${number}. Să fac programarea?`,
    booked: (b) => `Sunteți programat: ${b}. Vă mai pot ajuta cu ceva?`,
    moved: (b) => `Am mutat programarea. Acum sunteți programat: ${b}. Vă mai pot ajuta cu ceva?`,
    cancelled: (b) => `Am anulat programarea: ${b}. Vă mai pot ajuta cu ceva?`,
    kept: (b) => `Bine, programarea rămâne: ${b}. Vă mai pot ajuta cu ceva?`,
    existing: (b) => `Văd că aveți o programare: ${b}. Doriți să o păstrați, să o mutați sau să o anulați?`,
  },
  pt: {
    locale: 'pt-PT',
    lines: {
      request: 'Vou pedir que combinem uma hora consigo.',
      requestDetails: 'Diga-me o seu nome e o que devem saber, e eu transmito.',
      askName: 'Pode dizer-me o seu nome, por favor?',
      askNumber: 'Qual é o melhor número para lhe ligarem de volta?',
      badNumber: 'Desculpe, não percebi o número. Pode repeti-lo, algarismo a algarismo?',
      whichTime: 'Desculpe, qual destas horas prefere?',
      taken: 'Lamento, essa hora acabou de ser ocupada.',
      startAgain: 'Não há problema, vamos procurar outra hora.',
      nothingFree: 'Lamento, não encontro nenhuma hora livre para isso.',
    },
    offerOne: (t) => `Tenho disponível ${t}. Dá-lhe jeito?`,
    offerMany: (t) => `Tenho disponível ${t}. Qual prefere?`,
    whichService: (n) => `O que deseja marcar: ${n}?`,
    readBack: (b, name, number) => `Então fica ${b}, em nome de ${name}, com o número ${number}. Posso marcar?`,
    booked: (b) => `Está marcado: ${b}. Posso ajudar em mais alguma coisa?`,
    moved: (b) => `Está alterado. A sua marcação passa a ser ${b}. Posso ajudar em mais alguma coisa?`,
    cancelled: (b) => `Está cancelado: ${b}. Posso ajudar em mais alguma coisa?`,
    kept: (b) => `Muito bem, mantém a marcação: ${b}. Posso ajudar em mais alguma coisa?`,
    existing: (b) => `Vejo que tem uma marcação: ${b}. Quer mantê-la, alterá-la ou cancelá-la?`,
  },
  es: {
    locale: 'es',
    lines: {
      request: 'Les pediré que acuerden una hora con usted.',
      requestDetails: 'Dígame su nombre y cualquier cosa que deban saber, y se lo transmitiré.',
      askName: '¿Me dice su nombre, por favor?',
      askNumber: '¿Cuál es el mejor número para devolverle la llamada?',
      badNumber: 'Perdone, no he entendido el número. ¿Puede repetirlo, dígito a dígito?',
      whichTime: 'Perdone, ¿cuál de esas horas prefiere?',
      taken: 'Lo siento, esa hora se acaba de ocupar.',
      startAgain: 'No pasa nada, busquemos otra hora.',
      nothingFree: 'Lo siento, no encuentro ninguna hora libre para eso.',
    },
    offerOne: (t) => `Puedo ofrecerle ${t}. ¿Le viene bien?`,
    offerMany: (t) => `Puedo ofrecerle ${t}. ¿Cuál le viene mejor?`,
    whichService: (n) => `¿Qué desea reservar: ${n}?`,
    readBack: (b, name, number) => `Entonces, ${b}, a nombre de ${name}, en el número ${number}. ¿Lo reservo?`,
    booked: (b) => `Queda reservado: ${b}. ¿Puedo ayudarle en algo más?`,
    moved: (b) => `Cambiado. Ahora tiene reserva para ${b}. ¿Puedo ayudarle en algo más?`,
    cancelled: (b) => `Queda cancelado: ${b}. ¿Puedo ayudarle en algo más?`,
    kept: (b) => `Muy bien, mantiene su reserva: ${b}. ¿Puedo ayudarle en algo más?`,
    existing: (b) => `Veo que tiene una reserva: ${b}. ¿Quiere mantenerla, cambiarla o cancelarla?`,
  },
  cy: {
    locale: 'cy',
    lines: {
      request: 'Fe ofynnaf iddyn nhw gadarnhau amser gyda chi.',
      requestDetails: 'Dywedwch eich enw ac unrhyw beth y dylen nhw ei wybod, ac fe basiaf y neges ymlaen.',
      askName: 'Ga i eich enw, os gwelwch yn dda?',
      askNumber: "Beth yw'r rhif gorau iddyn nhw eich ffonio'n ôl arno?",
      badNumber: "Mae'n ddrwg gen i, ches i mo'r rhif. Allwch chi ei ddweud eto, fesul digid?",
      whichTime: "Mae'n ddrwg gen i, pa un o'r amseroedd hynny hoffech chi?",
      taken: "Mae'n ddrwg gen i, mae'r amser hwnnw newydd gael ei gymryd.",
      startAgain: 'Dim problem, gadewch i ni ddod o hyd i amser arall.',
      nothingFree: "Mae'n ddrwg gen i, alla i ddim dod o hyd i amser rhydd ar gyfer hynny.",
    },
    offerOne: (t) => `Galla i gynnig ${t}. Fyddai hynny'n gyfleus?`,
    offerMany: (t) => `Galla i gynnig ${t}. Pa un fyddai'n gyfleus?`,
    whichService: (n) => `Beth hoffech chi ei archebu: ${n}?`,
    readBack: (b, name, number) => `Felly dyna ${b}, i ${name}, ar ${number}. Ga i archebu hynny?`,
    booked: (b) => `Rydych chi wedi'ch archebu ar gyfer ${b}. Oes unrhyw beth arall y galla i helpu ag ef?`,
    moved: (b) => `Mae wedi'i symud. Rydych chi nawr wedi'ch archebu ar gyfer ${b}. Oes unrhyw beth arall y galla i helpu ag ef?`,
    cancelled: (b) => `Mae wedi'i ganslo: ${b}. Oes unrhyw beth arall y galla i helpu ag ef?`,
    kept: (b) => `Iawn, rydych chi'n dal wedi'ch archebu ar gyfer ${b}. Oes unrhyw beth arall y galla i helpu ag ef?`,
    existing: (b) => `Rwy'n gweld eich bod wedi archebu ${b}. Hoffech chi ei gadw, ei symud, neu ei ganslo?`,
  },
  ur: {
    locale: 'ur',
    comma: '، ',
    lines: {
      request: 'میں ان سے کہوں گا کہ وہ آپ کے ساتھ وقت طے کر لیں۔',
      requestDetails: 'براہ کرم اپنا نام اور جو کچھ انہیں معلوم ہونا چاہیے بتائیں، میں آگے پہنچا دوں گا۔',
      askName: 'کیا میں آپ کا نام جان سکتا ہوں؟',
      askNumber: 'آپ کو واپس کال کرنے کے لیے بہترین نمبر کون سا ہے؟',
      badNumber: 'معاف کیجیے، میں نمبر سمجھ نہیں سکا۔ کیا آپ ایک ایک ہندسہ کر کے دوبارہ بتا سکتے ہیں؟',
      whichTime: 'معاف کیجیے، ان میں سے کون سا وقت آپ چاہیں گے؟',
      taken: 'معاف کیجیے، یہ وقت ابھی ابھی کسی اور نے لے لیا ہے۔',
      startAgain: 'کوئی بات نہیں، کوئی اور وقت تلاش کرتے ہیں۔',
      nothingFree: 'معاف کیجیے، مجھے اس کے لیے کوئی خالی وقت نہیں مل رہا۔',
    },
    offerOne: (t) => `میں ${t} دے سکتا ہوں۔ کیا یہ آپ کے لیے ٹھیک ہے؟`,
    offerMany: (t) => `میں ${t} دے سکتا ہوں۔ آپ کے لیے کون سا ٹھیک رہے گا؟`,
    whichService: (n) => `آپ کیا بک کرنا چاہیں گے: ${n}؟`,
    readBack: (b, name, number) => `تو یہ ${b} ہے، ${name} کے لیے، نمبر ${number} پر۔ کیا میں یہ بک کر دوں؟`,
    booked: (b) => `آپ کی بکنگ ہو گئی ہے: ${b}۔ کیا میں کسی اور چیز میں مدد کر سکتا ہوں؟`,
    moved: (b) => `بکنگ تبدیل ہو گئی ہے۔ اب آپ کی بکنگ ہے: ${b}۔ کیا میں کسی اور چیز میں مدد کر سکتا ہوں؟`,
    cancelled: (b) => `بکنگ منسوخ ہو گئی ہے: ${b}۔ کیا میں کسی اور چیز میں مدد کر سکتا ہوں؟`,
    kept: (b) => `ٹھیک ہے، آپ کی بکنگ برقرار ہے: ${b}۔ کیا میں کسی اور چیز میں مدد کر سکتا ہوں؟`,
    existing: (b) => `میں دیکھ رہا ہوں کہ آپ کی بکنگ ہے: ${b}۔ کیا آپ اسے برقرار رکھنا، تبدیل کرنا یا منسوخ کرنا چاہیں گے؟`,
  },
  pa: {
    locale: 'pa',
    lines: {
      request: 'ਮੈਂ ਉਹਨਾਂ ਨੂੰ ਕਹਾਂਗਾ ਕਿ ਉਹ ਤੁਹਾਡੇ ਨਾਲ ਸਮਾਂ ਪੱਕਾ ਕਰ ਲੈਣ।',
      requestDetails: 'ਕਿਰਪਾ ਕਰਕੇ ਆਪਣਾ ਨਾਮ ਅਤੇ ਜੋ ਵੀ ਉਹਨਾਂ ਨੂੰ ਪਤਾ ਹੋਣਾ ਚਾਹੀਦਾ ਹੈ ਦੱਸੋ, ਮੈਂ ਅੱਗੇ ਪਹੁੰਚਾ ਦਿਆਂਗਾ।',
      askName: 'ਕੀ ਮੈਂ ਤੁਹਾਡਾ ਨਾਮ ਜਾਣ ਸਕਦਾ ਹਾਂ?',
      askNumber: 'ਤੁਹਾਨੂੰ ਵਾਪਸ ਕਾਲ ਕਰਨ ਲਈ ਸਭ ਤੋਂ ਵਧੀਆ ਨੰਬਰ ਕਿਹੜਾ ਹੈ?',
      badNumber: 'ਮਾਫ਼ ਕਰਨਾ, ਮੈਨੂੰ ਨੰਬਰ ਸਮਝ ਨਹੀਂ ਆਇਆ। ਕੀ ਤੁਸੀਂ ਇੱਕ ਇੱਕ ਅੰਕ ਕਰਕੇ ਦੁਬਾਰਾ ਦੱਸ ਸਕਦੇ ਹੋ?',
      whichTime: 'ਮਾਫ਼ ਕਰਨਾ, ਇਹਨਾਂ ਵਿੱਚੋਂ ਤੁਸੀਂ ਕਿਹੜਾ ਸਮਾਂ ਚਾਹੋਗੇ?',
      taken: 'ਮਾਫ਼ ਕਰਨਾ, ਇਹ ਸਮਾਂ ਹੁਣੇ ਹੀ ਕਿਸੇ ਹੋਰ ਨੇ ਲੈ ਲਿਆ ਹੈ।',
      startAgain: 'ਕੋਈ ਗੱਲ ਨਹੀਂ, ਆਓ ਕੋਈ ਹੋਰ ਸਮਾਂ ਲੱਭੀਏ।',
      nothingFree: 'ਮਾਫ਼ ਕਰਨਾ, ਮੈਨੂੰ ਇਸ ਲਈ ਕੋਈ ਖਾਲੀ ਸਮਾਂ ਨਹੀਂ ਮਿਲ ਰਿਹਾ।',
    },
    offerOne: (t) => `ਮੈਂ ${t} ਦੇ ਸਕਦਾ ਹਾਂ। ਕੀ ਇਹ ਤੁਹਾਡੇ ਲਈ ਠੀਕ ਹੈ?`,
    offerMany: (t) => `ਮੈਂ ${t} ਦੇ ਸਕਦਾ ਹਾਂ। ਤੁਹਾਡੇ ਲਈ ਕਿਹੜਾ ਠੀਕ ਰਹੇਗਾ?`,
    whichService: (n) => `ਤੁਸੀਂ ਕੀ ਬੁੱਕ ਕਰਨਾ ਚਾਹੋਗੇ: ${n}?`,
    readBack: (b, name, number) => `ਤਾਂ ਇਹ ${b} ਹੈ, ${name} ਲਈ, ਨੰਬਰ ${number} ਉੱਤੇ। ਕੀ ਮੈਂ ਇਹ ਬੁੱਕ ਕਰ ਦਿਆਂ?`,
    booked: (b) => `ਤੁਹਾਡੀ ਬੁਕਿੰਗ ਹੋ ਗਈ ਹੈ: ${b}। ਕੀ ਮੈਂ ਕਿਸੇ ਹੋਰ ਚੀਜ਼ ਵਿੱਚ ਮਦਦ ਕਰ ਸਕਦਾ ਹਾਂ?`,
    moved: (b) => `ਬੁਕਿੰਗ ਬਦਲ ਦਿੱਤੀ ਗਈ ਹੈ। ਹੁਣ ਤੁਹਾਡੀ ਬੁਕਿੰਗ ਹੈ: ${b}। ਕੀ ਮੈਂ ਕਿਸੇ ਹੋਰ ਚੀਜ਼ ਵਿੱਚ ਮਦਦ ਕਰ ਸਕਦਾ ਹਾਂ?`,
    cancelled: (b) => `ਬੁਕਿੰਗ ਰੱਦ ਕਰ ਦਿੱਤੀ ਗਈ ਹੈ: ${b}। ਕੀ ਮੈਂ ਕਿਸੇ ਹੋਰ ਚੀਜ਼ ਵਿੱਚ ਮਦਦ ਕਰ ਸਕਦਾ ਹਾਂ?`,
    kept: (b) => `ਠੀਕ ਹੈ, ਤੁਹਾਡੀ ਬੁਕਿੰਗ ਬਣੀ ਰਹੇਗੀ: ${b}। ਕੀ ਮੈਂ ਕਿਸੇ ਹੋਰ ਚੀਜ਼ ਵਿੱਚ ਮਦਦ ਕਰ ਸਕਦਾ ਹਾਂ?`,
    existing: (b) => `ਮੈਂ ਦੇਖ ਰਿਹਾ ਹਾਂ ਕਿ ਤੁਹਾਡੀ ਬੁਕਿੰਗ ਹੈ: ${b}। ਕੀ ਤੁਸੀਂ ਇਸ ਨੂੰ ਰੱਖਣਾ, ਬਦਲਣਾ ਜਾਂ ਰੱਦ ਕਰਨਾ ਚਾਹੋਗੇ?`,
  },
};

const ENGLISH: BookingSpeech = {
  lines: BOOKING_LINES,
  when: (slot) => slot.spoken,
  offerTimes,
  whichService,
  readBack,
  booked,
  moved,
  cancelled,
  kept,
  existingBooking,
};

/** The locale's words for the weekday, the day and the month, and the 24-hour clock, in London. */
function londonFormat(locale: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, { timeZone: 'Europe/London', weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit', hourCycle: 'h23' });
}

function translated(t: Templates): BookingSpeech {
  const format = londonFormat(t.locale);
  const or = new Intl.ListFormat(t.locale, { type: 'disjunction' });
  const when = (slot: SpokenTime) => format.format(slot.start);
  const whole = (b: SpokenBooking) => `${when(b)}${t.comma ?? ', '}${b.serviceName}`;
  return {
    lines: t.lines,
    when,
    offerTimes(slots) {
      const times = slots.slice(0, 3).map(when);
      return times.length === 1 ? t.offerOne(times[0]!) : t.offerMany(or.format(times));
    },
    whichService: (services) => t.whichService(or.format(services.map((s) => s.name))),
    readBack: (slot, name, callerNumber) => t.readBack(whole(slot), name, spokenNumber(callerNumber)),
    booked: (b) => t.booked(whole(b)),
    moved: (b) => t.moved(whole(b)),
    cancelled: (b) => t.cancelled(whole(b)),
    kept: (b) => t.kept(whole(b)),
    existingBooking: (b) => t.existing(whole(b)),
  };
}

const SPEECH = new Map<LanguageCode, BookingSpeech>([['en', ENGLISH]]);

/** The booking lines a caller answered in `language` hears (made once per language). */
export function bookingSpeech(language: LanguageCode): BookingSpeech {
  let s = SPEECH.get(language);
  if (!s) SPEECH.set(language, (s = translated(TRANSLATED[language as Exclude<LanguageCode, 'en'>])));
  return s;
}
