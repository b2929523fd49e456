// Reproducible benchmark data in three languages, written through the real handlers.
//
// `planSeed(n, seed, now)` decides everything (names, dates, links, statuses) from a seeded PRNG,
// so a size and a seed always give the same data; `runSeed` then sends it, in-process, as
// payload-2.0 events to the operations' handler modules with an editor token, at a fixed
// concurrency, with a progress bar on stderr. Links refer to records by their index in the plan
// and are resolved to the ids the API returned.
import type { Lang } from '#lib/runtime/config.js';
import { pool } from '#lib/runtime/pool.js';

export const BENCH_LANGS: readonly Lang[] = ['en', 'lt', 'ru'];
/** Share of the records of each language. */
const LANG_WEIGHT: Record<Lang, number> = { en: 0.5, lt: 0.3, ru: 0.2 };

// --- PRNG ---------------------------------------------------------------------------------------

/** mulberry32: small, fast and good enough for test data. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)); // inclusive
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const chance = (p: number) => next() < p;
  /** An index in [0, weights.length) drawn by weight. */
  const weighted = (weights: readonly number[]) => {
    const sum = weights.reduce((s, w) => s + w, 0);
    let x = next() * sum;
    for (let i = 0; i < weights.length; i++) if ((x -= weights[i]!) < 0) return i;
    return weights.length - 1;
  };
  /** `k` distinct indexes in [0, n), drawn by weight. */
  const distinct = (weights: readonly number[], k: number) => {
    const out: number[] = [];
    const w = [...weights];
    for (let i = 0; i < Math.min(k, w.length); i++) {
      const j = weighted(w);
      out.push(j);
      w[j] = 0;
    }
    return out;
  };
  return { next, int, pick, chance, weighted, distinct };
}

/** Zipf-like popularity: a few popular items, a long tail. */
const zipf = (n: number, s = 0.8) => Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);

// --- vocabulary ---------------------------------------------------------------------------------

const CATEGORIES: Record<Lang, string[]> = {
  en: ['Concerts', 'Festivals', 'Workshops', 'Exhibitions', 'Theatre', 'Film', 'Sports', 'Family', 'Food & Drink', 'Talks', 'Nightlife', 'Community'],
  lt: ['Koncertai', 'Festivaliai', 'Seminarai', 'Parodos', 'Teatras', 'Kinas', 'Sportas', 'Šeimai', 'Maistas ir gėrimai', 'Paskaitos', 'Naktinis gyvenimas', 'Bendruomenė'],
  ru: ['Концерты', 'Фестивали', 'Мастер-классы', 'Выставки', 'Театр', 'Кино', 'Спорт', 'Для семьи', 'Еда и напитки', 'Лекции', 'Ночная жизнь', 'Сообщество'],
};

const TAGS: Record<Lang, string[]> = {
  en: [
    'Free entry',
    'Outdoor',
    'Indoor',
    'Kids',
    'Students',
    'Seniors',
    'Live music',
    'DJ',
    'Vegan',
    'Accessible',
    'In English',
    'Online',
    'Weekend',
    'Evening',
    'Beginners',
    'Advanced',
    'Charity',
    'Premiere',
    'Limited seats',
    'Pet friendly',
  ],
  lt: [
    'Nemokamas įėjimas',
    'Lauke',
    'Viduje',
    'Vaikams',
    'Studentams',
    'Senjorams',
    'Gyva muzika',
    'DJ',
    'Veganiška',
    'Pritaikyta neįgaliesiems',
    'Anglų kalba',
    'Internetu',
    'Savaitgalį',
    'Vakare',
    'Pradedantiesiems',
    'Pažengusiems',
    'Labdara',
    'Premjera',
    'Ribotas vietų skaičius',
    'Galima su gyvūnais',
  ],
  ru: [
    'Свободный вход',
    'На открытом воздухе',
    'В помещении',
    'Для детей',
    'Для студентов',
    'Для пожилых',
    'Живая музыка',
    'Диджей',
    'Веганское меню',
    'Доступная среда',
    'На английском',
    'Онлайн',
    'Выходные',
    'Вечером',
    'Для начинающих',
    'Для продвинутых',
    'Благотворительность',
    'Премьера',
    'Мест мало',
    'Можно с животными',
  ],
};

/** Title parts: `a b c` in en and lt, `b c a` in ru (so that the Russian reads naturally). */
const TITLE: Record<Lang, [string[], string[], string[]]> = {
  en: [
    [
      'Spring',
      'Summer',
      'Autumn',
      'Winter',
      'Midnight',
      'Open-Air',
      'Family',
      'Grand',
      'Little',
      'Late-Night',
      'Weekend',
      'Evening',
      'Morning',
      'Neighbourhood',
      'Riverside',
      'Downtown',
      'Acoustic',
      'Classic',
      'Modern',
      'Community',
    ],
    [
      'Jazz',
      'Folk',
      'Poetry',
      'Film',
      'Photography',
      'Theatre',
      'Dance',
      'Chess',
      'Wine',
      'Coffee',
      'Design',
      'Science',
      'History',
      'Cooking',
      'Yoga',
      'Running',
      'Choir',
      'Puppet',
      'Book',
      'Startup',
    ],
    ['Concert', 'Festival', 'Workshop', 'Meetup', 'Night', 'Fair', 'Lecture', 'Tour', 'Screening', 'Club', 'Marathon', 'Market', 'Masterclass', 'Party', 'Exhibition'],
  ],
  lt: [
    [
      'Pavasario',
      'Vasaros',
      'Rudens',
      'Žiemos',
      'Vidurnakčio',
      'Šeimos',
      'Didysis',
      'Mažasis',
      'Savaitgalio',
      'Vakaro',
      'Ryto',
      'Kiemo',
      'Pamario',
      'Senamiesčio',
      'Akustinis',
      'Klasikinis',
      'Modernus',
      'Bendruomenės',
      'Naktinis',
      'Atviras',
    ],
    [
      'džiazo',
      'folkloro',
      'poezijos',
      'kino',
      'fotografijos',
      'teatro',
      'šokio',
      'šachmatų',
      'vyno',
      'kavos',
      'dizaino',
      'mokslo',
      'istorijos',
      'kulinarijos',
      'jogos',
      'bėgimo',
      'choro',
      'lėlių',
      'knygų',
      'startuolių',
    ],
    [
      'koncertas',
      'festivalis',
      'seminaras',
      'susitikimas',
      'vakaras',
      'mugė',
      'paskaita',
      'ekskursija',
      'seansas',
      'klubas',
      'maratonas',
      'turgus',
      'meistriškumo klasė',
      'vakarėlis',
      'paroda',
    ],
  ],
  ru: [
    [
      'на набережной',
      'в старом городе',
      'для всей семьи',
      'под открытым небом',
      'в выходные',
      'по вечерам',
      'у реки',
      'в парке',
      'в центре',
      'на крыше',
      'в библиотеке',
      'в галерее',
      'на площади',
      'в саду',
      'в клубе',
      'в студии',
      'онлайн',
      'для детей',
      'для начинающих',
      'для профессионалов',
    ],
    [
      'джаза',
      'фолка',
      'поэзии',
      'кино',
      'фотографии',
      'театра',
      'танца',
      'шахмат',
      'вина',
      'кофе',
      'дизайна',
      'науки',
      'истории',
      'кулинарии',
      'йоги',
      'бега',
      'хора',
      'кукол',
      'книг',
      'стартапов',
    ],
    ['Концерт', 'Фестиваль', 'Семинар', 'Встреча', 'Вечер', 'Ярмарка', 'Лекция', 'Экскурсия', 'Показ', 'Клуб', 'Марафон', 'Рынок', 'Мастер-класс', 'Вечеринка', 'Выставка'],
  ],
};

const SENTENCES: Record<Lang, string[]> = {
  en: [
    'Join us for an unforgettable evening with friends old and new.',
    'Doors open thirty minutes before the start.',
    'Tickets are limited, so book early.',
    'Suitable for all ages; children must be accompanied by an adult.',
    'Light refreshments will be served during the break.',
    'The programme features local artists and international guests.',
    'Bring a friend and enjoy a discount at the door.',
    'The venue is wheelchair accessible.',
  ],
  lt: [
    'Kviečiame į nepamirštamą vakarą su senais ir naujais draugais.',
    'Durys atsidaro likus trisdešimčiai minučių iki pradžios.',
    'Bilietų skaičius ribotas, todėl užsisakykite iš anksto.',
    'Tinka visoms amžiaus grupėms; vaikai tik su suaugusiaisiais.',
    'Pertraukos metu bus vaišinama gaiviaisiais gėrimais.',
    'Programoje vietiniai menininkai ir svečiai iš užsienio.',
    'Atsiveskite draugą ir gaukite nuolaidą prie įėjimo.',
    'Vieta pritaikyta žmonėms su negalia.',
  ],
  ru: [
    'Приглашаем на незабываемый вечер со старыми и новыми друзьями.',
    'Двери открываются за тридцать минут до начала.',
    'Количество билетов ограничено, бронируйте заранее.',
    'Подходит для всех возрастов; дети только в сопровождении взрослых.',
    'Во время перерыва будут поданы лёгкие закуски.',
    'В программе местные артисты и зарубежные гости.',
    'Приходите с другом и получите скидку на входе.',
    'Площадка доступна для маломобильных посетителей.',
  ],
};

const CITIES: Record<Lang, { city: string; country: string; lat: number; lng: number; streets: string[] }[]> = {
  en: [
    { city: 'London', country: 'United Kingdom', lat: 51.507, lng: -0.128, streets: ['High Street', 'Station Road', 'Church Lane', 'Park Road'] },
    { city: 'Manchester', country: 'United Kingdom', lat: 53.481, lng: -2.243, streets: ['Deansgate', 'Oxford Road', 'Market Street'] },
    { city: 'Bristol', country: 'United Kingdom', lat: 51.454, lng: -2.588, streets: ['Park Street', 'Gloucester Road', 'Queen Square'] },
    { city: 'Edinburgh', country: 'United Kingdom', lat: 55.953, lng: -3.189, streets: ['Royal Mile', 'Princes Street', 'Leith Walk'] },
  ],
  lt: [
    { city: 'Vilnius', country: 'Lietuva', lat: 54.687, lng: 25.28, streets: ['Gedimino pr.', 'Pilies g.', 'Vokiečių g.', 'Didžioji g.'] },
    { city: 'Kaunas', country: 'Lietuva', lat: 54.899, lng: 23.904, streets: ['Laisvės al.', 'Vilniaus g.', 'Donelaičio g.'] },
    { city: 'Klaipėda', country: 'Lietuva', lat: 55.703, lng: 21.144, streets: ['Tiltų g.', 'Turgaus g.', 'Herkaus Manto g.'] },
  ],
  ru: [
    { city: 'Москва', country: 'Россия', lat: 55.756, lng: 37.617, streets: ['Тверская ул.', 'Арбат', 'Пятницкая ул.', 'Мясницкая ул.'] },
    { city: 'Санкт-Петербург', country: 'Россия', lat: 59.939, lng: 30.316, streets: ['Невский пр.', 'Литейный пр.', 'Садовая ул.'] },
    { city: 'Казань', country: 'Россия', lat: 55.796, lng: 49.108, streets: ['ул. Баумана', 'ул. Пушкина', 'ул. Кремлёвская'] },
  ],
};

const VENUE_NAMES: Record<Lang, [string[], string[]]> = {
  en: [
    [
      'Anchor',
      'Lantern',
      'Oak',
      'Harbour',
      'Crown',
      'Willow',
      'Granary',
      'Foundry',
      'Mill',
      'Beacon',
      'Orchard',
      'Corn Exchange',
      'Old Post Office',
      'Riverside',
      'Victoria',
      'Albert',
      'Phoenix',
      'Globe',
      'Union',
      'Kingfisher',
    ],
    ['Hall', 'Theatre', 'Club', 'Gallery', 'Arena', 'Library', 'Centre', 'Studio', 'Chapel', 'Yard'],
  ],
  lt: [
    [
      'Ąžuolo',
      'Žibinto',
      'Uosto',
      'Karūnos',
      'Gluosnio',
      'Malūno',
      'Švyturio',
      'Sodo',
      'Senojo pašto',
      'Upės',
      'Gintaro',
      'Aušros',
      'Vilties',
      'Pilies',
      'Tilto',
      'Rasos',
      'Liepos',
      'Saulės',
      'Vėtrungės',
      'Žuvėdros',
    ],
    ['salė', 'teatras', 'klubas', 'galerija', 'arena', 'biblioteka', 'centras', 'studija', 'kiemas', 'erdvė'],
  ],
  ru: [
    [
      'Якорь',
      'Фонарь',
      'Дуб',
      'Гавань',
      'Корона',
      'Ива',
      'Амбар',
      'Мельница',
      'Маяк',
      'Сад',
      'Старая почта',
      'Набережная',
      'Феникс',
      'Глобус',
      'Союз',
      'Зимородок',
      'Берёза',
      'Рассвет',
      'Пристань',
      'Звезда',
    ],
    ['Зал', 'Театр', 'Клуб', 'Галерея', 'Арена', 'Библиотека', 'Центр', 'Студия', 'Двор', 'Пространство'],
  ],
};

const ORGANIZER_NAMES: Record<Lang, [string[], string[]]> = {
  en: [
    ['Northern', 'City', 'Open', 'Bright', 'Riverside', 'Old Town', 'Green', 'Blue Door', 'Silver', 'Harbour'],
    ['Arts Collective', 'Music Society', 'Events Ltd', 'Cultural Trust', 'Friends Club', 'Festival Team', 'Community Group', 'Productions'],
  ],
  lt: [
    ['Šiaurės', 'Miesto', 'Atviroji', 'Šviesos', 'Pamario', 'Senamiesčio', 'Žalioji', 'Mėlynųjų durų', 'Sidabro', 'Uosto'],
    ['menų kolektyvas', 'muzikos draugija', 'renginių agentūra', 'kultūros fondas', 'bičiulių klubas', 'festivalio komanda', 'bendruomenė', 'prodiuserių centras'],
  ],
  ru: [
    ['Северный', 'Городской', 'Открытый', 'Светлый', 'Речной', 'Старый город', 'Зелёный', 'Синяя дверь', 'Серебряный', 'Портовый'],
    ['арт-коллектив', 'музыкальный клуб', 'ивент-агентство', 'культурный фонд', 'клуб друзей', 'фестивальный центр', 'общественный центр', 'продюсерский центр'],
  ],
};

const TIMEZONE: Record<Lang, string> = { en: '', lt: 'Europe/Vilnius', ru: 'Europe/Moscow' };
const COSTS = ['0', '5', '10', '12.50', '15', '20', '25', '35', '10 - 25', '15 - 50', '€20', '€8'];

// --- the plan -------------------------------------------------------------------------------------

export interface TermPlan {
  lang: Lang;
  taxonomy: 'category' | 'tag';
  body: { name: string; description?: string };
}
export interface PlacePlan {
  lang: Lang;
  kind: 'venue' | 'organizer';
  body: Record<string, unknown>;
}
export interface EventPlan {
  lang: Lang;
  body: Record<string, unknown>;
  /** Indexes into the plan's venue, organizer, category and tag lists of the event's language. */
  venue: number;
  organizers: number[];
  categories: number[];
  tags: number[];
  /** Summary used to choose the measured filters. */
  utcDay: string;
  status: 'publish' | 'draft';
  featured: boolean;
}
export interface SeedPlan {
  seed: number;
  size: number;
  categories: Record<Lang, TermPlan[]>;
  tags: Record<Lang, TermPlan[]>;
  venues: Record<Lang, PlacePlan[]>;
  organizers: Record<Lang, PlacePlan[]>;
  events: EventPlan[];
}

const two = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Splits `total` over the languages by weight (each gets at least one). */
function split(total: number): Record<Lang, number> {
  const en = Math.max(1, Math.round(total * LANG_WEIGHT.en));
  const lt = Math.max(1, Math.round(total * LANG_WEIGHT.lt));
  return { en, lt, ru: Math.max(1, total - en - lt) };
}

/** The first day of the month `months` after the month of `now` (UTC). */
export function monthStart(now: Date, months: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
}

/**
 * The whole data set of one size. Events start on days spread uniformly over 30 months from
 * 6 months before `now`; venues ~1 per 25 events, organizers ~1 per 40, 12 categories and 20
 * tags per language.
 */
export function planSeed(size: number, seed: number, now: Date): SeedPlan {
  const rng = prng(seed * 1_000_003 + size);
  const langOf = () => BENCH_LANGS[rng.weighted(BENCH_LANGS.map((l) => LANG_WEIGHT[l]))]!;
  const byLang = <T>(make: (lang: Lang) => T[]) => ({ en: make('en'), lt: make('lt'), ru: make('ru') });

  const categories = byLang((lang) => CATEGORIES[lang].map((name): TermPlan => ({ lang, taxonomy: 'category', body: { name } })));
  const tags = byLang((lang) => TAGS[lang].map((name): TermPlan => ({ lang, taxonomy: 'tag', body: { name } })));

  const venueCount = split(Math.max(3, Math.round(size / 25)));
  const venues = byLang((lang) =>
    Array.from({ length: venueCount[lang] }, (): PlacePlan => {
      const c = rng.pick(CITIES[lang]);
      const [first, second] = VENUE_NAMES[lang];
      const body: Record<string, unknown> = {
        venue: `${rng.pick(first)} ${rng.pick(second)}`,
        address: `${rng.pick(c.streets)} ${rng.int(1, 180)}`,
        city: c.city,
        country: c.country,
        zip: String(rng.int(10000, 99999)),
        phone: `+${rng.int(100, 999)} ${rng.int(100, 999)} ${rng.int(1000, 9999)}`,
        description: rng.pick(SENTENCES[lang]),
      };
      if (rng.chance(0.6)) {
        body.geo_lat = Number((c.lat + (rng.next() - 0.5) * 0.1).toFixed(6));
        body.geo_lng = Number((c.lng + (rng.next() - 0.5) * 0.1).toFixed(6));
      }
      return { lang, kind: 'venue', body };
    }),
  );

  const organizerCount = split(Math.max(3, Math.round(size / 40)));
  const organizers = byLang((lang) =>
    Array.from({ length: organizerCount[lang] }, (_, i): PlacePlan => {
      const [first, second] = ORGANIZER_NAMES[lang];
      const name = `${rng.pick(first)} ${rng.pick(second)}`;
      return {
        lang,
        kind: 'organizer',
        body: {
          organizer: name,
          email: `org${i + 1}.${lang}@example.org`,
          phone: `+${rng.int(100, 999)} ${rng.int(100, 999)} ${rng.int(1000, 9999)}`,
          website: `https://example.org/${lang}/organizers/${i + 1}`,
        },
      };
    }),
  );

  // Popularity: a few venues, organizers and terms carry many events.
  const popularity = {
    venues: byLang((lang) => zipf(venues[lang].length, 0.6)),
    organizers: byLang((lang) => zipf(organizers[lang].length, 0.6)),
    categories: byLang((lang) => zipf(categories[lang].length, 0.8)),
    tags: byLang((lang) => zipf(tags[lang].length, 0.8)),
  };

  const first = monthStart(now, -6);
  const days = Math.round((monthStart(now, 24).getTime() - first.getTime()) / 86_400_000);
  const events = Array.from({ length: size }, (): EventPlan => {
    const lang = langOf();
    const [a, b, c] = TITLE[lang];
    const [x, y, z] = [rng.pick(a), rng.pick(b), rng.pick(c)];
    const title = lang === 'ru' ? `${z} ${y} ${x}` : `${x} ${y} ${z}`;
    const day = new Date(first.getTime() + rng.int(0, days - 1) * 86_400_000);
    const kind = rng.next();
    let start: string;
    let end: string;
    let allDay = false;
    if (kind < 0.04) {
      allDay = true; // all-day, sometimes over two or three days
      start = ymd(day);
      end = ymd(new Date(day.getTime() + (rng.chance(0.3) ? rng.int(1, 2) : 0) * 86_400_000));
    } else if (kind < 0.08) {
      const h = rng.int(9, 18); // multi-day (a conference, a fair): 1 to 3 nights
      start = `${ymd(day)} ${two(h)}:00`;
      end = `${ymd(new Date(day.getTime() + rng.int(1, 3) * 86_400_000))} ${two(rng.int(12, 20))}:00`;
    } else {
      const h = rng.int(9, 21);
      const m = rng.pick([0, 0, 15, 30, 30, 45]);
      const minutes = h * 60 + m + rng.pick([60, 90, 120, 120, 150, 180, 240]);
      const endMinutes = Math.min(minutes, 23 * 60 + 59);
      start = `${ymd(day)} ${two(h)}:${two(m)}`;
      end = `${ymd(day)} ${two(Math.floor(endMinutes / 60))}:${two(endMinutes % 60)}`;
    }
    const status = rng.chance(0.1) ? 'draft' : 'publish';
    const featured = rng.chance(0.1);
    const cost = rng.chance(0.3) ? '0' : rng.pick(COSTS); // free (TEC shows "Free") or paid
    const description = Array.from({ length: rng.int(1, 3) }, () => rng.pick(SENTENCES[lang])).join(' ');
    const body: Record<string, unknown> = {
      title: cap(title),
      description: `<p>${cap(title)}. ${description}</p>`,
      excerpt: `${description.split('.')[0]}.`,
      start_date: start,
      end_date: end,
      status,
      featured,
      cost,
      website: rng.chance(0.3) ? `https://example.org/${lang}/e/${rng.int(1, 1e6)}` : '',
      show_map: rng.chance(0.5),
      show_map_link: rng.chance(0.5),
    };
    if (allDay) body.all_day = true;
    if (TIMEZONE[lang]) body.timezone = TIMEZONE[lang];
    return {
      lang,
      body,
      venue: rng.weighted(popularity.venues[lang]),
      organizers: rng.distinct(popularity.organizers[lang], rng.chance(0.7) ? 1 : 2),
      categories: rng.distinct(popularity.categories[lang], rng.chance(0.6) ? 1 : 2),
      tags: rng.distinct(popularity.tags[lang], rng.int(0, 3)),
      utcDay: ymd(day),
      status,
      featured,
    };
  });
  return { seed, size, categories, tags, venues, organizers, events };
}

// --- sending ---------------------------------------------------------------------------------------

export { invoke as call } from './invoke.js';
import { invoke as call } from './invoke.js';

/** Retryable answers: lost races the handler gave up on, throttling, transient errors. */
const RETRY = new Set([409, 429, 500, 503]);

/** POSTs a record and returns its id; retries transient failures a few times. */
async function create(lang: Lang, path: string, body: unknown, token: string, stats: { retries: number }): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const res = await call('POST', lang, path, { body, token });
    if (res.status === 201) return res.body.id as number;
    if (!RETRY.has(res.status) || attempt >= 10) {
      throw new Error(`POST /${lang}${path} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}\nbody: ${JSON.stringify(body).slice(0, 500)}`);
    }
    stats.retries++;
    // Exponential back-off, capped: a busy machine needs seconds, not milliseconds.
    await new Promise((r) => setTimeout(r, Math.min(2000, 25 * 2 ** attempt)));
  }
}

/** `[#####.....] 1234/20000 events  310/s` on stderr: redrawn in place on a terminal, else a line per 10%. */
export class Progress {
  private done = 0;
  private readonly started = performance.now();
  private lastDraw = 0;
  private lastDecile = -1;
  private readonly tty = !!process.stderr.isTTY;
  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly width = 30,
  ) {}
  tick(n = 1): void {
    this.done += n;
    const now = performance.now();
    if (this.tty) {
      if (now - this.lastDraw >= 100 || this.done === this.total) {
        this.lastDraw = now;
        process.stderr.write(`\r${this.line()}\x1b[K`);
      }
    } else {
      const decile = Math.floor((this.done / this.total) * 10);
      if (decile !== this.lastDecile && (decile > this.lastDecile || this.done === this.total)) {
        this.lastDecile = decile;
        process.stderr.write(`${this.line()}\n`);
      }
    }
  }
  finish(): void {
    if (this.tty) process.stderr.write(`\r${this.line()}\x1b[K\n`);
  }
  rate(): number {
    return this.done / Math.max(1e-9, (performance.now() - this.started) / 1000);
  }
  private line(): string {
    const filled = this.total ? Math.round((this.done / this.total) * this.width) : this.width;
    return `[${'#'.repeat(filled)}${'.'.repeat(this.width - filled)}] ${this.done}/${this.total} ${this.label}  ${Math.round(this.rate())}/s`;
  }
}

export interface SeedIds {
  categories: Record<Lang, { id: number; slug: string }[]>;
  tags: Record<Lang, { id: number; slug: string }[]>;
  venues: Record<Lang, number[]>;
  organizers: Record<Lang, number[]>;
}

export interface SeedStats {
  events: number;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  /** Seconds for terms, venues and organizers, then for the events. */
  setupSeconds: number;
  eventSeconds: number;
  eventsPerSecond: number;
  retries: number;
}

/** Writes a plan through the API: terms, then venues and organizers, then the events. */
export async function runSeed(plan: SeedPlan, token: string, concurrency = 8): Promise<{ ids: SeedIds; stats: SeedStats }> {
  const stats = { retries: 0 };
  const setupStart = performance.now();
  const empty = <T>(): Record<Lang, T[]> => ({ en: [], lt: [], ru: [] });
  const ids: SeedIds = { categories: empty(), tags: empty(), venues: empty(), organizers: empty() };

  // Terms one at a time: few, and their ids then follow the plan's order.
  for (const lang of BENCH_LANGS) {
    for (const [list, path, out] of [
      [plan.categories[lang], '/categories', ids.categories[lang]],
      [plan.tags[lang], '/tags', ids.tags[lang]],
    ] as const) {
      for (const t of list) {
        const res = await call('POST', lang, path, { body: t.body, token });
        if (res.status !== 201) throw new Error(`POST /${lang}${path} -> ${res.status}: ${JSON.stringify(res.body)}`);
        out.push({ id: res.body.id, slug: res.body.slug });
      }
    }
  }

  const places = BENCH_LANGS.flatMap((lang) => [...plan.venues[lang], ...plan.organizers[lang]].map((p, i) => ({ p, i })));
  for (const lang of BENCH_LANGS) {
    ids.venues[lang] = new Array(plan.venues[lang].length);
    ids.organizers[lang] = new Array(plan.organizers[lang].length);
  }
  const placeBar = new Progress(places.length, 'venues+organizers');
  const venueOffset = (lang: Lang) => plan.venues[lang].length;
  await pool(places, concurrency, async ({ p, i }) => {
    const id = await create(p.lang, p.kind === 'venue' ? '/venues' : '/organizers', p.body, token, stats);
    if (p.kind === 'venue') ids.venues[p.lang][i] = id;
    else ids.organizers[p.lang][i - venueOffset(p.lang)] = id;
    placeBar.tick();
  });
  placeBar.finish();
  const setupSeconds = (performance.now() - setupStart) / 1000;

  const bar = new Progress(plan.events.length, 'events');
  const eventStart = performance.now();
  await pool(plan.events, concurrency, async (e) => {
    const body = {
      ...e.body,
      venue: ids.venues[e.lang][e.venue],
      organizer: e.organizers.map((i) => ids.organizers[e.lang][i]),
      categories: e.categories.map((i) => ids.categories[e.lang][i]!.id),
      tags: e.tags.map((i) => ids.tags[e.lang][i]!.id),
    };
    await create(e.lang, '/events', body, token, stats);
    bar.tick();
  });
  bar.finish();
  const eventSeconds = (performance.now() - eventStart) / 1000;
  const count = <T>(r: Record<Lang, T[]>) => BENCH_LANGS.reduce((s, l) => s + r[l].length, 0);
  return {
    ids,
    stats: {
      events: plan.events.length,
      venues: count(plan.venues),
      organizers: count(plan.organizers),
      categories: count(plan.categories),
      tags: count(plan.tags),
      setupSeconds,
      eventSeconds,
      eventsPerSecond: plan.events.length / Math.max(1e-9, eventSeconds),
      retries: stats.retries,
    },
  };
}
