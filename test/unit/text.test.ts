import { describe, expect, it } from 'vitest';
import { escapeHtml, renderContent, stripTags } from '../../lib/text.js';

describe('renderContent', () => {
  it('returns empty string for blank input', () => {
    expect(renderContent('')).toBe('');
    expect(renderContent('  \n\r\n  ')).toBe('');
  });

  it('wraps a single line in a paragraph (TEC sample)', () => {
    expect(renderContent('An evening concert.')).toBe('<p>An evening concert.</p>');
    expect(renderContent('  Evening concert \n')).toBe('<p>Evening concert</p>');
  });

  it('splits blocks on blank lines', () => {
    expect(renderContent('a\n\nb')).toBe('<p>a</p>\n<p>b</p>');
    expect(renderContent('a\r\n\r\nb')).toBe('<p>a</p>\n<p>b</p>');
    expect(renderContent('a\n\n\n\nb\n \nc')).toBe('<p>a</p>\n<p>b</p>\n<p>c</p>');
  });

  it('turns single newlines into <br />', () => {
    expect(renderContent('line one\nline two')).toBe('<p>line one<br />\nline two</p>');
    expect(renderContent('x  \r\ny\n\nz')).toBe('<p>x<br />\ny</p>\n<p>z</p>');
  });

  it('leaves blocks that start with block-level tags unwrapped', () => {
    expect(renderContent('<p>Already</p>')).toBe('<p>Already</p>');
    expect(renderContent('Intro\n\n<ul><li>x</li></ul>\n\n<h2 class="t">T</h2>')).toBe(
      '<p>Intro</p>\n<ul><li>x</li></ul>\n<h2 class="t">T</h2>',
    );
    expect(renderContent('<div>\ninside\n</div>')).toBe('<div>\ninside\n</div>');
  });

  it('still wraps inline HTML and tags that only look like block tags', () => {
    expect(renderContent('<strong>Bold</strong> text')).toBe('<p><strong>Bold</strong> text</p>');
    expect(renderContent('<pref>x</pref>')).toBe('<p><pref>x</pref></p>');
  });
});

describe('escapeHtml', () => {
  it('escapes like htmlspecialchars with ENT_QUOTES', () => {
    expect(escapeHtml('<p>Main hall</p>')).toBe('&lt;p&gt;Main hall&lt;/p&gt;');
    expect(escapeHtml(`Tom & "Jerry's"`)).toBe('Tom &amp; &quot;Jerry&#039;s&quot;');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
    expect(escapeHtml('')).toBe('');
    expect(escapeHtml('plain')).toBe('plain');
  });
});

describe('stripTags', () => {
  it('removes tags and collapses whitespace', () => {
    expect(stripTags('<p>An evening concert.</p>')).toBe('An evening concert.');
    expect(stripTags('<p>a</p>\n<p>b</p>')).toBe('a b');
    expect(stripTags('<p>a</p><p>b</p>')).toBe('a b');
    expect(stripTags('line<br />next')).toBe('line next');
    expect(stripTags('Hel<b>lo</b>  \n\t world')).toBe('Hello world');
    expect(stripTags('')).toBe('');
  });

  it('drops script/style contents and comments', () => {
    expect(stripTags('a<script>alert(1)</script>b<style>p{}</style>c<!-- note -->d')).toBe('a b c d');
  });

  it('leaves text that merely contains < alone', () => {
    expect(stripTags('1 < 2 and 3 > 2')).toBe('1 < 2 and 3 > 2');
  });
});
