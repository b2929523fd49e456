// `npm run import -- --from URL --user LOGIN --app-password PASSWORD [options]`: moves a live
// WordPress + TEC site's calendar here, record for record (lib/import/).
import './sdk-quiet.js';
import { resetConfig } from '#lib/runtime/config.js';
import { ensureDevKeys, localAuthEnv, mintToken } from '#lib/local/dev-auth.js';
import { ensureTable, JavaMissingError, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { Progress } from '#lib/local/demo-calendar.js';
import { invoke } from '#lib/local/invoke.js';
import { indexAlong } from '#lib/stream/backfill.js';
import { seriesMembers } from '#lib/store/partitions.js';
import { createReadStream } from 'node:fs';
import { agreeingZone, importRecords, importLive, formatSummary } from '#lib/import/run.js';
import { wxrRecords } from '#lib/import/wxr-source.js';
import { recordRefusal, type SiteRecord, type SiteUser } from '#lib/import/records.js';
import { isValidTimezone } from '#lib/domain/time/dates.js';
import { readWxr, WxrError } from '#lib/import/wxr-reader.js';
import { LiveSite, SiteError } from '#lib/import/live-source.js';
import { cli, wholeNumber } from './cli.js';

const c = cli(
  `Usage: npm run import -- --from URL --user LOGIN --app-password PASSWORD [options]
Moves a WordPress + The Events Calendar site's events, venues, organizers, categories, tags and
users here, each with its id and slug, into the data npm start serves (.local/dynamodb), or into
DYNAMODB_ENDPOINT, or with --aws into a deployed table. Run it again to bring what changed.
  --from            the site's URL (its home, e.g. https://example.org)
  --user            a login of the site that may edit posts (an editor or administrator)
  --app-password    that user's application password (Users → Profile → Application Passwords)
  --wxr FILE        a WordPress export file (Tools → Export) instead of a live site
  --timezone ZONE   with --wxr: the site's time zone (Settings → General: Europe/Vilnius, or
                    UTC+2 for a manual offset), which an export does not hold; a live import
                    reads it from the site
  --author LOGIN    with --wxr: the user a post without a known author is written as (an author
                    the file lists); default: the file's first author, else the import's own user
  --since TIME      only posts modified after TIME (ISO 8601); default: since the last run
  --full            read every post, whatever the last run
  --delete-missing  delete here what was imported before and is gone from the site
  --dry-run         say what would change, write nothing
  --concurrency N   requests to the site at once (default 4), and writes here at once
  --aws             the deployed table, with this machine's AWS credentials and AWS_REGION
  --table NAME      the table (default TABLE_NAME, or event-calendar); with --aws, the stack output TableName`,
  {
    from: { type: 'string' },
    user: { type: 'string' },
    'app-password': { type: 'string' },
    since: { type: 'string' },
    full: { type: 'boolean' },
    'delete-missing': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    wxr: { type: 'string' },
    timezone: { type: 'string' },
    author: { type: 'string' },
    concurrency: { type: 'string' },
    aws: { type: 'boolean' },
    table: { type: 'string' },
  },
);
const from = c.values.from as string | undefined;
const user = c.values.user as string | undefined;
const appPassword = (c.values['app-password'] as string | undefined) ?? process.env.WP_APP_PASSWORD;
const wxr = c.values.wxr as string | undefined;
if (!wxr && (!from || !user || !appPassword)) c.fail('--from, --user and --app-password (or WP_APP_PASSWORD) are required, or --wxr FILE.');
if (c.values.aws && c.values.table === undefined) c.fail('--aws needs --table: the stack output TableName.');
const since = c.values.since as string | undefined;
if (since !== undefined && Number.isNaN(Date.parse(since))) c.fail(`--since must be a date and time (ISO 8601), got "${since}".`);
const concurrency = wholeNumber(c, 'concurrency', c.values.concurrency as string | undefined, 4);
const timezone = c.values.timezone as string | undefined;
if (timezone !== undefined && !wxr) c.fail('--timezone is for --wxr: a live import reads the time zone from the site.');
if (wxr && !timezone && !process.env.SITE_TIMEZONE)
  c.fail("--wxr needs --timezone ZONE: the site's time zone (Settings → General), in which the export's dates without a zone are read; an export does not hold it.");
if (timezone !== undefined && !isValidTimezone(timezone)) c.fail(`--timezone must be a time zone (Europe/Vilnius, UTC, UTC+2), got "${timezone}".`);
const authorLogin = c.values.author as string | undefined;
if (authorLogin !== undefined && !wxr) c.fail('--author is for --wxr: a live site names every author.');
if (wxr && timezone) {
  // The export's dates are read in the site's zone: it is the zone the writes run with.
  try {
    process.env.SITE_TIMEZONE = agreeingZone(process.env.SITE_TIMEZONE, timezone);
  } catch (err) {
    c.fail((err as Error).message);
  }
}

let dynamo: DynamoLocal | undefined;
try {
  // What can be checked without the table is checked first: the file whole, or the site and its login.
  let records: SiteRecord[] | undefined;
  let defaultAuthor: number | undefined;
  if (wxr) {
    console.error(`Reading ${wxr}…`);
    records = await wxrRecords(readWxr(createReadStream(wxr)));
    // An author whose id this API cannot hold is refused (and reported) with the rest: never a default.
    const authors = records.filter((r): r is SiteUser => r.kind === 'user' && !recordRefusal(r));
    const chosen = authorLogin === undefined ? authors.toSorted((a, b) => a.id - b.id)[0] : authors.find((u) => u.login === authorLogin);
    if (authorLogin !== undefined && !chosen) c.fail(`--author ${authorLogin} is not an author the file lists (${authors.map((u) => u.login).join(', ') || 'it lists none'}).`);
    defaultAuthor = chosen?.id;
    const posts = records.filter((r) => r.kind === 'venue' || r.kind === 'organizer' || r.kind === 'event').length;
    console.error(
      `The file holds ${posts} venues, organizers and events, ${records.filter((r) => r.kind === 'category' || r.kind === 'tag').length} categories and tags, ${authors.length} authors.`,
    );
  } else {
    await new LiveSite({ url: from!, user: user!, appPassword: appPassword!, concurrency }).check();
  }
  const keys = await ensureDevKeys();
  Object.assign(process.env, localAuthEnv(keys));
  process.env.TABLE_NAME = (c.values.table as string | undefined) ?? process.env.TABLE_NAME ?? 'event-calendar';
  process.env.SITE_URL ||= `http://127.0.0.1:${process.env.PORT || 3000}`;
  if (c.values.aws) delete process.env.DYNAMODB_ENDPOINT;
  else if (!process.env.DYNAMODB_ENDPOINT) {
    console.error('Starting DynamoDB Local (.local/dynamodb)…');
    dynamo = await startDynamoLocal({ dataDir: '.local/dynamodb' });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
  resetConfig();
  // With its change stream: the consumer of `npm start` then keeps what other triggers keep of
  // these writes (the change log, series without an end, webhooks).
  if (!c.values.aws) await ensureTable(process.env.TABLE_NAME);
  const token = await mintToken(keys, { role: 'editor', sub: 'site-import', ttl: '12h' });
  // Locally no stream consumer may be running: the search index of the events is built here
  // (idempotent), from the ids the import holds and its series' occurrences, beside the writes as
  // they are done; a deployed table's consumer builds it from the writes.
  // DynamoDB Local commits a transaction's items at once and a batch's one by one; transactions
  // only where nothing else writes the index meanwhile (a DynamoDB Local the command started).
  const commits = dynamo ? ('transaction' as const) : ('batch' as const);
  const along = !c.values.aws && !c.values['dry-run'] ? indexAlong(commits) : undefined;
  let bar: Progress | undefined;
  const common = {
    send: invoke,
    token,
    dryRun: Boolean(c.values['dry-run']),
    deleteMissing: Boolean(c.values['delete-missing']),
    concurrency,
    seriesByConsumer: Boolean(c.values.aws),
    commits,
    ...(along ? { settled: (id: number) => along.add(id) } : {}),
    // Nothing else reads a DynamoDB Local the command started, and every event is indexed here.
    unobserved: dynamo !== undefined,
    ...(defaultAuthor ? { defaultAuthor } : {}),
    progress: (kind: string, total: number) => {
      bar?.finish();
      if (!total) return undefined;
      bar = new Progress(total, kind === 'category' ? 'categories' : kind === 'series' ? 'series with their occurrences' : `${kind}s`);
      const b = bar;
      return () => b.tick();
    },
    log: (line: string) => console.error(line),
  };
  const summary = records
    ? await importRecords(records, common)
    : await importLive({
        ...common,
        site: { url: from!, user: user!, appPassword: appPassword!, concurrency },
        since: c.values.full ? null : since,
        // The writes read dates in the site's zone, which the served API must be told too.
        onTimezone: (zone) => {
          process.env.SITE_TIMEZONE = agreeingZone(process.env.SITE_TIMEZONE, zone);
          resetConfig();
          console.error(`The site's time zone is ${zone}: serve the imported calendar with SITE_TIMEZONE=${zone}.`);
        },
      });
  bar?.finish();
  let indexFailure: { err: unknown } | undefined;
  if (along) {
    const ids = new Set(summary.events);
    for (const s of summary.series) if (s.lines) for (const m of await seriesMembers(s.event)) ids.add(m.eventId);
    console.error(`Building the search index of ${ids.size} events (${along.indexed} indexed while writing)…`);
    const index = ids.size ? new Progress(ids.size, 'events indexed') : undefined;
    index?.tick(along.indexed);
    let shown = along.indexed;
    // A failure of the index is told after the run's summary, which it would otherwise hide.
    indexFailure = await along
      .finish(ids, (done) => {
        index?.tick(done - shown);
        shown = done;
      })
      .then(
        () => undefined,
        (err: unknown) => ({ err }),
      );
    index?.finish();
  }
  console.log(formatSummary(summary, Boolean(c.values['dry-run'])));
  if (indexFailure) throw indexFailure.err;
  if (summary.failed.length) process.exitCode = 1;
} catch (err) {
  console.error(err instanceof JavaMissingError || err instanceof SiteError || err instanceof WxrError ? err.message : `Import failed: ${(err as Error).stack}`);
  process.exitCode = 1;
} finally {
  await dynamo?.stop();
}
