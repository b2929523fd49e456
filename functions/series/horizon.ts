// The daily move of the horizon of series without an end (a schedule, infra/schedules.ts): follows
// each one's rules again and records the occurrences the stream consumer then writes.
import type { Context } from 'aws-lambda';
import { logger } from '#lib/observe/log.js';
import { moveHorizons, type HorizonOutcome } from '#lib/logic/series-horizon.js';

export const handler = async (_event: unknown, context: Context | undefined): Promise<Record<HorizonOutcome, number>> => {
  const counts = await moveHorizons(new Date(), () => context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY);
  logger.info({ message: 'Moved the horizon of series without an end', ...counts });
  return counts;
};
