// The occurrences of recurring events: a change of a series' first event whose occurrences are not
// all written yet writes the next ones (lib/logic/series.ts), and the progress it records is the
// change that brings the next.
import { continueSeries } from '#lib/logic/series.js';
import { seriesPending } from '#lib/logic/series-rules.js';
import { postImage, type Trigger } from './change.js';

export const seriesTrigger: Trigger = {
  id: 'series',
  wants: (change) => change.kind === 'event' && change.action !== 'delete' && seriesPending(postImage(change.new, 'event')),
  apply: (change) => continueSeries(change.id),
};
