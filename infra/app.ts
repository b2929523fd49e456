// The CDK app: `npx cdk synth` / `npx cdk deploy` (cdk.json runs this file with tsx).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EventCalendarStack, type EventCalendarStackProps } from './stack.js';

/** `props` is for the tests (another operation table); the deployed app passes none. */
export function buildApp(app: App = new App(), props: EventCalendarStackProps = {}): { app: App; stack: EventCalendarStack } {
  const stack = new EventCalendarStack(app, 'EventCalendarApi', {
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    ...props,
  });
  // cdk-nag 3 is a policy-validation plugin: unacknowledged errors fail the synth, and warnings
  // are printed in the validation report.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}

// Run as the CDK app (not when imported by the tests).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildApp().app.synth();
}
