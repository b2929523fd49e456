// The rates of scheduled functions: EventBridge's rate expressions, read the way the local runtime
// runs them (lib/local/schedules.ts) and the stack writes them (infra/schedules.ts).
import { describe, expect, it } from 'vitest';
import { rateMs, SCHEDULED_FUNCTIONS } from '#lib/stream/functions.js';

describe('rateMs', () => {
  it('reads minutes, hours and days, singular for one and plural for more, as EventBridge does', () => {
    expect(rateMs('rate(1 day)')).toBe(86_400_000);
    expect(rateMs('rate(2 days)')).toBe(172_800_000);
    expect(rateMs('rate(1 hour)')).toBe(3_600_000);
    expect(rateMs('rate(15 minutes)')).toBe(900_000);
  });

  it('refuses what EventBridge refuses', () => {
    for (const bad of ['rate(1 days)', 'rate(2 day)', 'rate(0 minutes)', 'rate(1 week)', 'cron(0 3 * * ? *)', 'rate(1.5 hours)', 'rate( 1 day)']) {
      expect(() => rateMs(bad), bad).toThrow(/Not an EventBridge rate expression/);
    }
  });

  it('reads the rate of every scheduled function', () => {
    expect(SCHEDULED_FUNCTIONS.length).toBeGreaterThan(0);
    for (const f of SCHEDULED_FUNCTIONS) expect(rateMs(f.schedule)).toBeGreaterThanOrEqual(60_000);
  });
});
