// The link form of the request being answered (config.ts `LinkForm`), held in the request's scope.
import { linkFormSource, type LinkForm } from './config.js';
import { scopedValue } from './scope.js';

const linkForm = scopedValue<LinkForm>('link form');
linkFormSource(() => linkForm.get() ?? 'lang');

/** Runs `fn` writing links in `form` (the pipeline sets it for each request; the default is `lang`). */
export const withLinkForm = <R>(form: LinkForm, fn: () => R): R => linkForm.run(form, fn);
