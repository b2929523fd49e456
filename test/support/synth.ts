// Synthesizes the CDK app for the infrastructure tests, as infra/app.ts builds it, and reads its
// templates: the root one and each nested stack's, one by one (for CloudFormation's limits) and
// merged into one view (for what the stack holds, wherever it lives).
import fs from 'node:fs';
import path from 'node:path';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { expect, vi } from 'vitest';
import { REPO_ROOT } from '../../infra/api-function.js';
import { buildApp } from '../../infra/app.js';
import type { EventCalendarStack, EventCalendarStackProps } from '../../infra/stack.js';
import { FALLBACK_HANDLER, OPERATIONS } from '#lib/contract/operations.js';

export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
export type Resources = Record<string, Resource>;

/** A synthesized template: the root stack's, or a nested stack's with its logical id in its parent. */
export interface StackTemplate {
  /** The construct path of the stack. */
  path: string;
  /** The nested stack's logical id in its parent; undefined for the root. */
  logicalId?: string;
  json: Record<string, any>;
}

export interface Synth {
  app: App;
  stack: EventCalendarStack;
  /** The root stack's template. */
  template: Template;
  /** Every template, the root first. */
  templates: StackTemplate[];
  /**
   * The resources of every template in one map, nested stacks' resources included, with each
   * reference that crosses stacks (a nested stack's parameter, a nested stack's output) replaced by
   * what it stands for: `{ Ref: <the table's logical id> }` wherever the table is meant.
   */
  resources: Resources;
  /** The root's outputs, resolved the same way. */
  outputs: Record<string, { Value: unknown; Description?: string }>;
}

export const cdkJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };

/**
 * Builds the app exactly as infra/app.ts does (cdk.json context, cdk-nag), without bundling.
 * NodejsFunction still insists that its entry file exists even when bundling is skipped; the
 * handler modules belong to functions/, so a missing one is reported as present while the
 * stack is constructed (and only then): these tests are about the infrastructure.
 */
export function synth(context: Record<string, unknown> = {}, props: EventCalendarStackProps = {}): Synth {
  const entries = new Set([...(props.operations ?? OPERATIONS).map((op) => op.handler), FALLBACK_HANDLER].map((h) => path.join(REPO_ROOT, h)));
  const realExists = fs.existsSync;
  const spy = vi.spyOn(fs, 'existsSync').mockImplementation((p) => entries.has(String(p)) || realExists(p));
  let built: { app: App; stack: EventCalendarStack };
  try {
    built = buildApp(new App({ context: { ...cdkJson.context, ...context, 'aws:cdk:bundling-stacks': [] } }), props);
  } finally {
    spy.mockRestore();
  }
  const template = Template.fromStack(built.stack);
  const templates = stackTemplates(built.stack, template);
  const merged = mergeTemplates(templates);
  return { ...built, template, templates, ...merged };
}

/** The root template and every nested stack's, with each nested stack's logical id in its parent. */
function stackTemplates(root: Stack, rootTemplate: Template): StackTemplate[] {
  const out: StackTemplate[] = [{ path: root.node.path, json: rootTemplate.toJSON() }];
  for (const c of root.node.findAll()) {
    if (!(c instanceof NestedStack)) continue;
    const resource = c.nestedStackResource!;
    out.push({ path: c.node.path, logicalId: Stack.of(resource).getLogicalId(resource as never), json: Template.fromStack(c).toJSON() });
  }
  return out;
}

/**
 * One map of every template's resources, references across stacks resolved: a nested template's
 * `{ Ref: <parameter> }` becomes what its parent passes, and a parent's `Fn::GetAtt` of a nested
 * stack's output becomes that output's value, both resolved in turn. Logical ids are unique across
 * the templates (functions are named after their operations), which the merge checks.
 */
function mergeTemplates(templates: StackTemplate[]): Pick<Synth, 'resources' | 'outputs'> {
  const parentOf = new Map<StackTemplate, StackTemplate>();
  const nestedById = new Map<string, StackTemplate>();
  for (const t of templates) if (t.logicalId) nestedById.set(t.logicalId, t);
  for (const t of templates) {
    for (const [id, r] of Object.entries(t.json.Resources as Resources)) {
      const child = r.Type === 'AWS::CloudFormation::Stack' ? nestedById.get(id) : undefined;
      if (child) parentOf.set(child, t);
    }
  }
  const resolve = (t: StackTemplate, value: unknown): unknown => {
    if (Array.isArray(value)) return value.map((v) => resolve(t, v));
    if (value === null || typeof value !== 'object') return value;
    const o = value as Record<string, unknown>;
    const parent = parentOf.get(t);
    if (typeof o.Ref === 'string' && parent && t.json.Parameters?.[o.Ref]) {
      const nested = parent.json.Resources[t.logicalId!] as Resource;
      return resolve(parent, nested.Properties.Parameters[o.Ref]);
    }
    const getAtt = o['Fn::GetAtt'] as [string, string] | undefined;
    if (Array.isArray(getAtt) && typeof getAtt[1] === 'string' && getAtt[1].startsWith('Outputs.')) {
      const child = nestedById.get(getAtt[0]);
      if (child && parentOf.get(child) === t) return resolve(child, child.json.Outputs[getAtt[1].slice('Outputs.'.length)].Value);
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, resolve(t, v)]));
  };
  const resources: Resources = {};
  for (const t of templates) {
    for (const [id, r] of Object.entries(t.json.Resources as Resources)) {
      if (resources[id]) throw new Error(`Logical id ${id} is in two templates`);
      resources[id] = resolve(t, r) as Resource;
    }
  }
  const root = templates[0]!;
  return { resources, outputs: resolve(root, root.json.Outputs ?? {}) as Synth['outputs'] };
}

/** CloudFormation's limits per template (a nested stack's template too). */
export const CLOUDFORMATION_LIMITS = { resources: 500, outputs: 200, parameters: 200, templateBytes: 1_000_000 } as const;

/** What each template uses of those limits. */
export function templateUsage(t: StackTemplate) {
  return {
    path: t.path,
    resources: Object.keys(t.json.Resources ?? {}).length,
    outputs: Object.keys(t.json.Outputs ?? {}).length,
    parameters: Object.keys(t.json.Parameters ?? {}).length,
    // As `cdk deploy` uploads it: JSON, indented by one space.
    templateBytes: Buffer.byteLength(JSON.stringify(t.json, undefined, 1)),
  };
}

/** Every template within every limit of CloudFormation's. */
export function expectWithinCloudFormationLimits(s: Synth): ReturnType<typeof templateUsage>[] {
  const usage = s.templates.map(templateUsage);
  for (const u of usage) {
    expect(u.resources, u.path).toBeLessThan(CLOUDFORMATION_LIMITS.resources);
    expect(u.outputs, u.path).toBeLessThan(CLOUDFORMATION_LIMITS.outputs);
    expect(u.parameters, u.path).toBeLessThan(CLOUDFORMATION_LIMITS.parameters);
    expect(u.templateBytes, u.path).toBeLessThan(CLOUDFORMATION_LIMITS.templateBytes);
  }
  return usage;
}

export const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

export function expectNoNagFindings(s: Synth): void {
  // cdk-nag 3 reports through CDK's policy validation, not through annotations: ask the pack
  // directly for what is left after acknowledgements, warnings included.
  const report = new AwsSolutionsChecks(s.app).validateScope(s.app);
  const findings = report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
  expect(findings).toEqual([]);
  // Nor any error annotation from CDK itself (or from a v2-style nag, should it come back).
  expect(Annotations.fromStack(s.stack).findError('*', Match.anyValue())).toEqual([]);
  expect(Annotations.fromStack(s.stack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
}
