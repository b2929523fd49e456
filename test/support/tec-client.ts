// A client of TEC's REST API written as the public ones are: configured with the site's URL and
// an application password, it finds the API through WordPress's REST index, builds
// `/wp-json/tribe/events/v1/…` and `/wp-json/wp/v2/…` itself, follows `next_rest_url` and
// WordPress's `X-WP-TotalPages`, and signs in with HTTP Basic. The same code runs against this API
// and against the live TEC, so that what a moved site's clients see can be compared.

export interface TecClientOptions {
  /** The site's URL, as a site owner types it: `https://example.org` (no API path). */
  site: string;
  /** `login:application-password`, or none for an anonymous client. */
  credentials?: string;
  /** `pretty` builds `/wp-json/…`; `plain` builds `/?rest_route=/…`, as for sites without pretty permalinks. */
  permalinks?: 'pretty' | 'plain';
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class TecClient {
  private readonly site: string;
  private readonly auth: Record<string, string>;
  constructor(private readonly options: TecClientOptions) {
    this.site = options.site.replace(/\/+$/, '');
    this.auth = options.credentials ? { authorization: `Basic ${Buffer.from(options.credentials).toString('base64')}` } : {};
  }

  /** The URL of a REST route (`/tribe/events/v1/events`) with its query, in the site's permalink form. */
  url(route: string, query: Record<string, string | number> = {}): string {
    const q = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    if (this.options.permalinks === 'plain') return `${this.site}/?rest_route=${route}${q ? `&${q}` : ''}`;
    return `${this.site}/wp-json${route}${q ? `?${q}` : ''}`;
  }

  async request<T = any>(method: string, url: string, body?: unknown): Promise<Answer<T>> {
    const res = await fetch(url, {
      method,
      headers: { ...this.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new Error(`${method} ${url} answered ${res.status} with no JSON: ${text.slice(0, 200)}`);
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  /** What a client checks first: the site speaks WordPress's REST API and has TEC's namespace. */
  async discover(): Promise<{ name: string; namespaces: string[] }> {
    const index = await this.request('GET', this.url('/'));
    if (index.status !== 200) throw new Error(`The site's REST index answered ${index.status}`);
    if (!index.body.namespaces.includes('tribe/events/v1')) throw new Error('The site has no tribe/events/v1 namespace');
    return { name: index.body.name, namespaces: index.body.namespaces };
  }

  /** Every event of a query, page after page through `next_rest_url`. */
  async allEvents(query: Record<string, string | number> = {}): Promise<{ events: any[]; pages: number; total: number }> {
    let url: string | undefined = this.url('/tribe/events/v1/events', query);
    const events: any[] = [];
    let pages = 0;
    let total = 0;
    while (url) {
      const page: Answer = await this.request('GET', url);
      if (page.status === 404 && page.body?.code === 'rest_event_not_found' && pages === 0) break;
      if (page.status !== 200) throw new Error(`GET ${url} answered ${page.status}: ${JSON.stringify(page.body)}`);
      events.push(...page.body.events);
      total = page.body.total;
      pages++;
      url = page.body.next_rest_url;
    }
    return { events, pages, total };
  }

  /** Every term of WordPress's core route (`tags`, `tribe_events_cat`), page after page by `X-WP-TotalPages`. */
  async allTerms(route: 'tags' | 'tribe_events_cat', query: Record<string, string | number> = {}): Promise<any[]> {
    const out: any[] = [];
    for (let page = 1; ; page++) {
      const res = await this.request('GET', this.url(`/wp/v2/${route}`, { hide_empty: 0, per_page: 50, page, ...query }));
      if (res.status !== 200) throw new Error(`GET wp/v2/${route} answered ${res.status}: ${JSON.stringify(res.body)}`);
      out.push(...res.body);
      if (page >= Number(res.headers.get('x-wp-totalpages') ?? 1)) return out;
    }
  }

  /** Who the credentials sign in as. */
  me(): Promise<Answer> {
    return this.request('GET', this.url('/wp/v2/users/me', { context: 'edit' }));
  }

  createEvent(body: Record<string, unknown>): Promise<Answer> {
    return this.request('POST', this.url('/tribe/events/v1/events'), body);
  }

  updateEvent(id: number, body: Record<string, unknown>): Promise<Answer> {
    return this.request('POST', this.url(`/tribe/events/v1/events/${id}`), body);
  }

  createTag(name: string): Promise<Answer> {
    return this.request('POST', this.url('/wp/v2/tags'), { name });
  }

  deleteEvent(id: number): Promise<Answer> {
    return this.request('DELETE', this.url(`/tribe/events/v1/events/${id}`));
  }
}
