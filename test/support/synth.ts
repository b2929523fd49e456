// Synthesizes the CDK app for the infrastructure tests, as infra/app.ts builds it.
import fs from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { expect, vi } from 'vitest';
import { REPO_ROOT } from '../../infra/api-function.js';
import { buildApp } from '../../infra/app.js';
import type { EventCalendarStack } from '../../infra/stack.js';
import { FALLBACK_HANDLER, OPERATIONS } from '#lib/contract/operations.js';

export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
export type Resources = Record<string, Resource>;

export interface Synth {
  app: App;
  stack: EventCalendarStack;
  template: Template;
  resources: Resources;
}

export const cdkJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };

/**
 * Builds the app exactly as infra/app.ts does (cdk.json context, cdk-nag), without bundling.
 * NodejsFunction still insists that its entry file exists even when bundling is skipped; the
 * handler modules belong to functions/, so a missing one is reported as present while the
 * stack is constructed (and only then): these tests are about the infrastructure.
 */
export function synth(context: Record<string, unknown> = {}): Synth {
  const entries = new Set([...OPERATIONS.map((op) => op.handler), FALLBACK_HANDLER].map((h) => path.join(REPO_ROOT, h)));
  const realExists = fs.existsSync;
  const spy = vi.spyOn(fs, 'existsSync').mockImplementation((p) => entries.has(String(p)) || realExists(p));
  let built: { app: App; stack: EventCalendarStack };
  try {
    built = buildApp(new App({ context: { ...cdkJson.context, ...context, 'aws:cdk:bundling-stacks': [] } }));
  } finally {
    spy.mockRestore();
  }
  const template = Template.fromStack(built.stack);
  return { ...built, template, resources: template.toJSON().Resources as Resources };
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
