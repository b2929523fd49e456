// The summary of a fuzz run, as text: requests, statuses, the operations that never succeeded,
// the isolation probes, and every group of failures with a reproducer (the minimized one when
// there is one).
import { visible } from './model.js';
import type { FailureGroup, FuzzSummary, Repro } from './runner.js';

const printable = (s: string) => (/^[\x20-\x7e]*$/.test(s) ? s : visible(s));

export function formatRepro(r: Repro, status: number, response: string, indent = '    '): string {
  const lines = [`${indent}${r.method} ${printable(r.target)}`];
  lines.push(`${indent}  caller: ${r.caller}`);
  for (const [k, v] of Object.entries(r.headers)) if (k !== 'authorization') lines.push(`${indent}  ${k}: ${printable(v)}`);
  if (r.body !== undefined) lines.push(`${indent}  body: ${r.body}`);
  lines.push(`${indent}  -> ${status} ${response.replace(/\s+/g, ' ').slice(0, 400)}`);
  return lines.join('\n');
}

function formatGroup(g: FailureGroup, i: number): string {
  const ops = Object.entries(g.ops).sort((a, b) => b[1] - a[1]);
  const out = [
    `  ${i + 1}. [${g.check}] ${g.key.split(' | ').slice(1).join(' | ')}  (${g.count}x)`,
    `     ${g.first.detail.slice(0, 400)}`,
    `     in: ${ops
      .slice(0, 8)
      .map(([op, n]) => `${op} (${n})`)
      .join(', ')}${ops.length > 8 ? `, and ${ops.length - 8} more` : ''}`,
  ];
  const shrunk = g.minimized && g.minimized.sends > 0 && !g.minimized.response.startsWith('(did not') ? g.minimized : undefined;
  if (shrunk) {
    out.push('     reproducer (minimized):', formatRepro(shrunk.request, shrunk.status, shrunk.response, '       '));
  } else {
    out.push(`     reproducer (request #${g.first.n}${g.minimized ? ', not reproduced alone' : ''}):`, formatRepro(g.first.request, g.first.status, g.first.response, '       '));
  }
  const notes = (shrunk ?? g.first).request.notes;
  if (notes.length) out.push(`     generated as: ${notes.join(', ').slice(0, 300)}`);
  return out.join('\n');
}

export function formatSummary(s: FuzzSummary): string {
  const lines: string[] = [];
  const secs = s.ms / 1000;
  lines.push(`Fuzz run: seed ${s.seed}, ${s.sent} requests (+${s.extra} for seeding, probes and minimizing) in ${secs.toFixed(1)} s (${Math.round(s.sent / secs)}/s)`);
  lines.push(
    `Statuses: ${Object.entries(s.perStatus)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')}`,
  );
  const never = Object.entries(s.successes)
    .filter(([, n]) => n === 0)
    .map(([op]) => op);
  lines.push(
    `Operations with a success: ${Object.keys(s.successes).length - never.length}/${Object.keys(s.successes).length}${never.length ? ` (never: ${never.join(', ')})` : ''}`,
  );
  lines.push(
    `Slowest operations (mean ms): ${s.latency
      .slice(0, 6)
      .map(([op, n, ms]) => `${op} ${ms} (${n}x)`)
      .join(', ')}`,
  );
  if (s.serverErrors.count) lines.push(`Server error log: ${s.serverErrors.count} lines, e.g.\n${s.serverErrors.samples.map((l) => `    ${l}`).join('\n')}`);
  if (s.probeBefore.length) lines.push(`Probes failing BEFORE the run (fresh server):\n${s.probeBefore.map((p) => `  - ${p}`).join('\n')}`);
  if (s.probeAfter.length) lines.push(`Probes failing AFTER the run (a request changed another):\n${s.probeAfter.map((p) => `  - ${p}`).join('\n')}`);
  if (s.groups.length) {
    lines.push(`Failures: ${s.failures} in ${s.groups.length} groups`);
    for (const [i, g] of s.groups.entries()) lines.push(formatGroup(g, i));
  } else if (!s.probeAfter.length && !s.probeBefore.length) {
    lines.push('No failures.');
  }
  return lines.join('\n');
}

/** Whether the run found anything. */
export const failed = (s: FuzzSummary) => s.groups.length > 0 || s.probeAfter.length > 0 || s.probeBefore.length > 0;
