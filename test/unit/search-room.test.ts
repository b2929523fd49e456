// How many candidates a feed's search may judge next (lib/logic/feed-reads.ts SearchRoom), from
// what the request has spent (lib/observe/capacity.ts) and what its chunks cost so far.
import { describe, expect, it } from 'vitest';
import { REQUEST_BUDGET } from '#lib/contract/budget.js';
import { SearchRoom } from '#lib/logic/feed-reads.js';
import { admit, capacity, emptyTally } from '#lib/observe/capacity.js';

/** The current request sends `n` more reads. */
const send = (n: number) => {
  for (let i = 0; i < n; i++) expect(admit('QueryCommand', REQUEST_BUDGET)).toBeUndefined();
};

describe('the room of a feed’s search', () => {
  it('takes what is asked outside a request, where there is no budget', () => {
    expect(new SearchRoom().fit(100, 0, true)).toBe(100);
  });

  it('takes 25 candidates whose records it reads before a chunk has measured them, and all of an index-only chunk', () => {
    capacity.scoped(emptyTally(), () => {
      send(3);
      expect(new SearchRoom().fit(100, 0, true)).toBe(25);
      expect(new SearchRoom().fit(100, 0, false)).toBe(100);
    });
  });

  it('stops before a chunk whose measured requests would pass what the feed keeps for after it', () => {
    const tally = emptyTally();
    capacity.scoped(tally, () => {
      const room = new SearchRoom();
      send(5);
      expect(room.fit(100, 0, false)).toBe(100);
      // The chunk took 12 requests: 17 sent, 12 more and 4 + 2 batches kept (35) fit in 50.
      send(12);
      room.judged(100);
      expect(room.fit(100, 100, false)).toBe(100);
      send(12);
      room.judged(100);
      // 29 sent: another 12, and 4 + 3 kept, would be 48; then 41 + 12 + 8 would not fit.
      expect(room.fit(100, 200, false)).toBe(100);
      send(12);
      room.judged(100);
      expect(room.fit(100, 300, false)).toBe(0);
    });
  });

  it('sizes a chunk by the read units per candidate measured so far', () => {
    const tally = emptyTally();
    capacity.scoped(tally, () => {
      const room = new SearchRoom();
      expect(room.fit(100, 0, true)).toBe(25);
      // 25 heavy records: 20 units each.
      send(1);
      tally.read += 500;
      room.judged(25);
      // 5,000 - 2,500 kept - 500 spent leave 2,000 units: 100 candidates.
      expect(room.fit(100, 25, true)).toBe(100);
      tally.read += 2_000;
      room.judged(100);
      expect(room.fit(100, 125, true)).toBe(0);
    });
  });

  it('stops once the records of its matches fill the feed’s bytes', () => {
    capacity.scoped(emptyTally(), () => {
      const room = new SearchRoom(10_000);
      expect(room.fit(100, 0, true)).toBe(25);
      room.judged(25, [{ text: 'x'.repeat(6_000) }]);
      expect(room.fit(100, 1, true)).toBeGreaterThan(0);
      room.judged(25, [{ text: 'x'.repeat(6_000) }]);
      expect(room.fit(100, 2, true)).toBe(0);
    });
  });
});
