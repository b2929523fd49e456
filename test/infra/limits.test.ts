// CloudFormation's limits per template, for the stack as deployed and for one with 200 operations
// (the real table plus copies of its operations): every template, the root and each nested one,
// stays below 500 resources, 200 outputs, 200 parameters and 1,000,000 bytes, and cdk-nag stays
// clean. The figures each run measures are printed.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { functionId } from '../../infra/api-function.js';
import { MAX_GROUP_OPERATIONS, operationGroups } from '../../infra/operation-groups.js';
import { OPERATIONS } from '#lib/contract/operations.js';
import { moreOperations } from '../support/more-operations.js';
import { expectNoNagFindings, expectWithinCloudFormationLimits, ofType, synth, templateUsage, type Resource, type Synth } from '../support/synth.js';

/** The size the stack must hold. */
const TARGET_OPERATIONS = 200;

afterAll(() => vi.restoreAllMocks());

function report(label: string, s: Synth): void {
  const rows = s.templates
    .map(templateUsage)
    .map(
      (u) =>
        `  ${u.path.padEnd(48)} ${String(u.resources).padStart(3)} resources ${String(u.outputs).padStart(3)} outputs ${String(u.parameters).padStart(3)} parameters ${String(u.templateBytes).padStart(7)} bytes`,
    );
  console.log(`${label}\n${rows.join('\n')}`);
}

describe('operation groups', () => {
  it('puts every operation in exactly one group, by kind, at most MAX_GROUP_OPERATIONS each, in the table’s order', () => {
    const ops = moreOperations(TARGET_OPERATIONS);
    const groups = operationGroups(ops, 3);
    expect(groups.flatMap((g) => g.operations)).toHaveLength(ops.length);
    expect(new Set(groups.flatMap((g) => g.operations.map((o) => o.id))).size).toBe(ops.length);
    expect(new Set(groups.map((g) => g.id)).size).toBe(groups.length);
    for (const g of groups) {
      expect(g.operations.length).toBeLessThanOrEqual(3);
      expect(new Set(g.operations.map((o) => o.id.split('.')[0])).size, g.id).toBe(1);
    }
    // The events (8 operations) in chunks of three.
    expect(groups.filter((g) => g.id.startsWith('events') && !g.id.includes('Copy')).map((g) => [g.id, g.operations.map((o) => o.id.split('.')[1])])).toEqual([
      ['events', ['list', 'create', 'get']],
      ['events2', ['delete', 'update', 'getBySlug']],
      ['events3', ['deleteBySlug', 'updateBySlug']],
    ]);
    expect(operationGroups(OPERATIONS).every((g) => g.operations.length <= MAX_GROUP_OPERATIONS)).toBe(true);
    expect(() => operationGroups([{ ...OPERATIONS[0]!, id: 'nokind' }])).toThrow(/kind/);
    // A kind's second chunk may not take another kind's name.
    expect(() => operationGroups([OPERATIONS[3]!, OPERATIONS[4]!, { ...OPERATIONS[3]!, id: 'events2.list' }], 1)).toThrow(/events2/);
  });
});

describe('CloudFormation limits', () => {
  it('holds the real operation table in templates well below every limit', () => {
    const s = synth();
    report(`${OPERATIONS.length} operations`, s);
    const usage = expectWithinCloudFormationLimits(s);
    // One nested stack per group, plus the monitoring one.
    expect(s.templates).toHaveLength(1 + operationGroups(OPERATIONS).length + 1);
    expect(usage[0]!.resources).toBeLessThan(100);
    expectNoNagFindings(s);
  }, 300_000);

  it(`holds ${TARGET_OPERATIONS} operations, every template within every limit, cdk-nag clean`, () => {
    const operations = moreOperations(TARGET_OPERATIONS);
    expect(operations).toHaveLength(TARGET_OPERATIONS);
    const s = synth({}, { operations });
    report(`${TARGET_OPERATIONS} operations`, s);
    expectWithinCloudFormationLimits(s);
    // Every operation got its function, in its group's template.
    const functions = new Set(ofType(s.resources, 'AWS::Lambda::Function').map(([id]) => id));
    for (const op of operations) expect(functions, op.id).toContain(functionId(op.id));
    // The dashboard stays within CloudWatch's widgets and metrics per dashboard.
    const [[, dashboard]] = ofType(s.resources, 'AWS::CloudWatch::Dashboard') as [[string, Resource]];
    const parts = dashboard.Properties.DashboardBody['Fn::Join'][1] as unknown[];
    const body = JSON.parse(parts.map((p) => (typeof p === 'string' ? p : 'x')).join('')) as { widgets: { type: string; properties: { metrics?: unknown[] } }[] };
    expect(body.widgets.length).toBeLessThanOrEqual(500);
    const lines = body.widgets.flatMap((w) => w.properties.metrics ?? []);
    expect(lines.length).toBeLessThanOrEqual(2500);
    for (const w of body.widgets) expect((w.properties.metrics ?? []).length).toBeLessThanOrEqual(500);
    expectNoNagFindings(s);
  }, 600_000);
});
