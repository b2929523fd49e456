// Reads kept in this process while the table's change counter stands (lib/store/validators.ts).
//
// Every write moves the counter after it committed and before its client is answered, so a read
// made once the counter showed a state holds every write that state counts, and stands for a
// later read while the counter still shows it: a write it misses has told no one yet. A consistent
// read qualifies when it was sent after the counter was read. An eventually consistent one (a
// Query without ConsistentRead) qualifies only once the counter has settled (`readsLagMs`): every
// write it counts then committed longer ago than such a read can lag, whichever was sent first.
// A polled calendar that nobody edits then reads, say, its month counts once per function.
import { config } from '#lib/runtime/config.js';
import { readsLagMs, settled, type Validator } from './validators.js';

/** The most reads kept per process; the oldest goes first (a new read replaces it). A read may also say it is too large to keep. */
const KEPT_READS = 128;

const standing = new Map<string, { stamp: string; value: Promise<unknown> }>();
/** The counter's state as a request here last read it, per table. */
const seen = new Map<string, string>();

const stampOf = (v: Validator) => `${v.stamp}@${v.last}`;

/**
 * What `read` gives, as read earlier while the counter showed the state `counter` gives (read as
 * it is now), else read now, and kept when it qualifies. `key` names the read in its table;
 * `consistent` says whether it reads consistently (it then waits for `counter`). An eventually
 * consistent read waits for `counter` only when the state this process saw last is the kept
 * read's: a read that will not stand goes out beside the counter's, in the same round trip.
 */
export async function whileStanding<T>(
  key: string,
  counter: Promise<Validator | undefined>,
  read: () => Promise<T>,
  consistent: boolean,
  small: (value: T) => boolean = () => true,
): Promise<T> {
  const table = config().tableName;
  const name = `${table}|${key}`;
  const hit = standing.get(name) as { stamp: string; value: Promise<T> } | undefined;
  const sentAt = Date.now();
  const early = consistent || (hit !== undefined && hit.stamp === seen.get(table)) ? undefined : read();
  // Its failure is the caller's, once the counter has answered: not an unhandled rejection meanwhile.
  early?.catch(() => undefined);
  const now = await counter;
  if (!now) return early ?? read();
  const at = stampOf(now);
  seen.set(table, at);
  if (hit?.stamp === at) return early ?? hit.value;
  // Settled as of when the read was sent: the counter's own answer may have taken a while.
  const settledThen = settled(now, readsLagMs(), early ? sentAt : Date.now());
  const value = early ?? read();
  if (consistent || settledThen) keep(name, at, value, small);
  return value;
}

function keep<T>(name: string, stamp: string, value: Promise<T>, small: (value: T) => boolean): void {
  standing.delete(name);
  if (standing.size >= KEPT_READS) standing.delete(standing.keys().next().value!);
  standing.set(name, { stamp, value });
  // A failed read is not kept, nor one too large to hold.
  const drop = () => standing.get(name)?.value === value && standing.delete(name);
  value.then((v) => small(v) || drop(), drop);
}
