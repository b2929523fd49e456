// The WordPress text filters (lib/wp/) and their composition (lib/wp/text.ts), case by case. The
// TEC corpus test (corpus-text.test.ts) checks the same functions against 4,000 live answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { escapeHtml, jsonLdDescription, jsonLdName, renderContent, renderExcerpt, renderTitle } from '#lib/wp/text.js';
import { renderTermName } from '#lib/contract/html-filters.js';
import { shortcodeUnautop, wpautop, wpHtmlSplit } from '#lib/wp/autop.js';
import { stripBlockDelimiters } from '#lib/wp/blocks.js';
import { convertChars, escHtml, escJs, escUrl, normalizeEntities, specialchars } from '#lib/wp/entities.js';
import { removeBracketed, tecExcerpt } from '#lib/wp/excerpt.js';
import { filterContentTags } from '#lib/wp/media.js';
import { addslashes, stripslashes } from '#lib/wp/php.js';
import { doShortcode, runEmbedShortcode, SHORTCODE_NAMES, shortcodeParseAtts } from '#lib/wp/shortcodes.js';
import { convertSmilies } from '#lib/wp/smilies.js';
import { phpStripTags, preKsesLessThan, sanitizeTextField, wpStripAllTags, wpTrimWords } from '#lib/wp/strip.js';
import { wptexturize } from '#lib/wp/texturize.js';

const SITE = 'http://127.0.0.1:8080';
const tex = (s: string) => wptexturize(s, SHORTCODE_NAMES);

beforeAll(() => {
  process.env.SITE_URL = SITE;
  resetConfig();
});

describe('wptexturize', () => {
  it.each([
    ['Hey -- boo?', 'Hey &#8212; boo?'],
    ['a--b', 'a&#8211;b'],
    ['a---b', 'a&#8212;b'],
    ['xn--80ak6aa92e.com', 'xn--80ak6aa92e.com'],
    ['a - b', 'a &#8211; b'],
    ['----', '&#8212;-'],
    ['Wait...', 'Wait&#8230;'],
    ['Brand (tm)', 'Brand &#8482;'],
    ['(tm)', '(tm)'],
    ["``quoted''", '&#8220;quoted&#8221;'],
    ['"quoted"', '&#8220;quoted&#8221;'],
    ["'quoted'", '&#8216;quoted&#8217;'],
    ["test's", 'test&#8217;s'],
    ["'tis the season", '&#8217;tis the season'],
    ["tell 'em", 'tell &#8217;em'],
    ["the '90s", 'the &#8217;90s'],
    ["'99' was great", '&#8217;99&#8217; was great'],
    ['("test")', '(&#8220;test&#8221;)'],
    ["('twas)", '(&#8217;twas)'],
    ['12" ruler', '12&#8243; ruler'],
    ["6' tall", '6&#8242; tall'],
    ["it's 5' and 9\" tall", 'it&#8217;s 5&#8242; and 9&#8243; tall'],
    ['word:"colon"', 'word:&#8221;colon&#8221;'],
    ['"42" and \'0.42\'', '&#8220;42&#8221; and &#8216;0.42&#8217;'],
    ['3x4', '3&#215;4'],
    ['1920x1080', '1920&#215;1080'],
    ['0x1F', '0x1F'],
    ['0.5x2', '0.5&#215;2'],
    ['3 x 4', '3 x 4'],
    ['AT&T', 'AT&#038;T'],
    ['&amp; &#8217; &#x27; &copy; &foo;', '&amp; &#8217; &#x27; &copy; &foo;'],
    ['&#;', '&#038;#;'],
    ['stop.\u00a0"A quote"', 'stop.\u00a0&#8220;A quote&#8221;'],
    ['&nbsp;"Testing"', '&nbsp;&#8220;Testing&#8221;'],
    ["Contraction: \u03a0's", 'Contraction: \u03a0&#8217;s'],
  ])('%j -> %j', (input, expected) => {
    expect(tex(input)).toBe(expected);
  });

  it('leaves tags, comments and attribute values alone but encodes their lone ampersands', () => {
    expect(tex('<a href="http://xx--xx">Hey -- boo?</a>')).toBe('<a href="http://xx--xx">Hey &#8212; boo?</a>');
    expect(tex('<a href="?a=1&b=2">x</a>')).toBe('<a href="?a=1&#038;b=2">x</a>');
    expect(tex('x <!-- "c" -- --> y')).toBe('x <!-- "c" -- --> y');
    expect(tex('<b>"bold quote"</b>')).toBe('<b>&#8220;bold quote&#8221;</b>');
    // A quote right after a tag starts a new text run (a WordPress quirk).
    expect(tex('"<b>x</b>"')).toBe('&#8220;<b>x</b>&#8220;');
  });

  it('skips <pre>, <code>, <kbd>, <style>, <script> and <tt> contents, nested or not', () => {
    expect(tex('<pre>---&</pre>')).toBe('<pre>---&</pre>');
    expect(tex('<code>href="baba"</code> "baba"')).toBe('<code>href="baba"</code> &#8220;baba&#8221;');
    expect(tex('<pre>"baba"<code>"baba"<pre></pre></code>"baba"</pre>')).toBe('<pre>"baba"<code>"baba"<pre></pre></code>"baba"</pre>');
    expect(tex('<pre></code>"baba"</pre>')).toBe('<pre></code>"baba"</pre>');
  });

  it('treats an unclosed `<` as a tag to the end', () => {
    expect(tex('a < "b"')).toBe('a < "b"');
  });

  it('leaves registered shortcode tags alone, and texturizes text around them', () => {
    expect(tex('[caption id="c1" width="300"]<img src="x.png"> Cap "q"[/caption]')).toBe('[caption id="c1" width="300"]<img src="x.png"> Cap &#8220;q&#8221;[/caption]');
    expect(tex('[unknown a="b"]')).toBe('[unknown a=&#8221;b&#8221;]');
    expect(tex('[ ... ]')).toBe('[ &#8230; ]');
  });

  it('returns "", "0" and blank text as they are', () => {
    expect(tex('')).toBe('');
    expect(tex('0')).toBe('0');
    expect(tex('  \n')).toBe('  \n');
  });
});

describe('wpautop', () => {
  it('wraps blank-line separated blocks in paragraphs and single newlines in <br />', () => {
    expect(wpautop('a\n\nb')).toBe('<p>a</p>\n<p>b</p>\n');
    expect(wpautop('line1\nline2')).toBe('<p>line1<br />\nline2</p>\n');
    expect(wpautop('crlf1\r\n\r\ncrlf2')).toBe('<p>crlf1</p>\n<p>crlf2</p>\n');
    expect(wpautop('cr\ronly')).toBe('<p>cr<br />\nonly</p>\n');
    expect(wpautop('  both  ')).toBe('<p>  both  </p>\n');
    expect(wpautop('   \n\t')).toBe('');
  });

  it('does not wrap block-level elements, and puts text before them in a paragraph', () => {
    expect(wpautop('a<div>b</div>').trim()).toBe('<p>a</p>\n<div>b</div>');
    expect(wpautop('<ul><li>a</li><li>b</li></ul>').trim()).toBe('<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    expect(wpautop('paragraph1<hr>paragraph2').trim()).toBe('<p>paragraph1</p>\n<hr>\n<p>paragraph2</p>');
    expect(wpautop('<blockquote>foo</blockquote>').trim()).toBe('<blockquote><p>foo</p></blockquote>');
    expect(wpautop('<p>one</p><p>two</p>').trim()).toBe('<p>one</p>\n<p>two</p>');
  });

  it('treats inline elements as inline', () => {
    for (const tag of ['a', 'em', 'strong', 'code', 'span', 'select', 'math']) {
      expect(wpautop(`<${tag}>foo</${tag}>`).trim()).toBe(`<p><${tag}>foo</${tag}></p>`);
    }
  });

  it('keeps <pre> contents as they are', () => {
    const input = 'Look\n\n<pre>Line1<br />Line2<br>Line3\nLine 2\n\nstill</pre>\n\nCool';
    expect(wpautop(input).trim()).toBe('<p>Look</p>\n<pre>Line1<br />Line2<br>Line3\nLine 2\n\nstill</pre>\n<p>Cool</p>');
  });

  it('turns two <br>s into a paragraph break and keeps line breaks after <br>', () => {
    expect(wpautop('\nline 1<br>\n<br/>\nline 2<br/>\n<br />\n').trim()).toBe('<p>line 1</p>\n<p>line 2</p>');
    expect(wpautop('\nline 1<br>\nline 2<br/>\nline 3\n').trim()).toBe('<p>line 1<br />\nline 2<br />\nline 3</p>');
    expect(wpautop('<br>').trim()).toBe('<p></p>');
  });

  it('does not break newlines inside tags, comments and CDATA', () => {
    expect(wpautop("Hello <a\nhref='world'>")).toBe("<p>Hello <a\nhref='world'></p>\n");
    expect(wpautop("Hello <!-- a\nhref='world' -->")).toBe("<p>Hello <!-- a\nhref='world' --></p>\n");
    expect(wpautop('Hello <![CDATA[ a\nb\n ]]>')).toBe('<p>Hello <![CDATA[ a\nb\n ]]></p>\n');
    expect(wpautop('<script type="text/javascript">\n  var a = 1;\n</script>').trim()).toBe('<p><script type="text/javascript">\n  var a = 1;\n</script></p>');
  });

  it('keeps an unclosed `<` inside its paragraph (the newline stays in it)', () => {
    expect(wpautop('a < b').trim()).toBe('<p>a < b\n</p>');
  });

  it('does not autop around select options, object params or figcaptions', () => {
    const select = 'Country: <select id="s"><option value="1">A</option><option value="2">B</option></select>';
    expect(wpautop(select).trim()).toBe(`<p>${select}</p>`);
    expect(wpautop('<figure>\n<img src="e.jpg" />\n<figcaption>Caption</figcaption>\n</figure>').trim()).toBe(
      '<figure>\n<img src="e.jpg" /><figcaption>Caption</figcaption></figure>',
    );
  });

  it('splits like wp_html_split', () => {
    expect(wpHtmlSplit('a<b>c<!-- d -->e')).toEqual(['a', '<b>', 'c', '<!-- d -->', 'e']);
    expect(wpHtmlSplit('a<b')).toEqual(['a', '<b', '']);
  });
});

describe('shortcodes', () => {
  it('removes the paragraph around a shortcode that stands alone', () => {
    expect(shortcodeUnautop('<p>[gallery]</p>\n', SHORTCODE_NAMES)).toBe('[gallery]\n');
    expect(shortcodeUnautop('<p>[caption]text[/caption]</p>', SHORTCODE_NAMES)).toBe('[caption]text[/caption]');
    expect(shortcodeUnautop('<p>[[gallery]]</p>', SHORTCODE_NAMES)).toBe('<p>[[gallery]]</p>');
    expect(shortcodeUnautop('<p>[unknown]</p>', SHORTCODE_NAMES)).toBe('<p>[unknown]</p>');
  });

  it('runs [caption] as an HTML5 figure', () => {
    expect(doShortcode('[caption id="c1" align="alignleft" width="300"]<img src="x.png"> Cap[/caption]')).toBe(
      '<figure id="c1" aria-describedby="caption-c1" style="width: 300px" class="wp-caption alignleft"><img src="x.png"><figcaption id="caption-c1" class="wp-caption-text">Cap</figcaption></figure>',
    );
    expect(doShortcode('[caption width="10" caption="Hi"]<a href="y"><img src="x.png"></a>[/caption]')).toBe(
      '<figure style="width: 10px" class="wp-caption alignnone"><a href="y"><img src="x.png"></a><figcaption class="wp-caption-text">Hi</figcaption></figure>',
    );
    // Without a width or a caption, the content alone.
    expect(doShortcode('[caption]text[/caption]')).toBe('text');
    expect(doShortcode('[wp_caption id="a_b" width="5"]<img src="x"> c[/wp_caption]')).toContain('id="caption-a-b"');
  });

  it('renders [gallery] and [playlist] as nothing and unescapes [[…]]', () => {
    expect(doShortcode('a [gallery ids="1,2"] b [playlist] c')).toBe('a  b  c');
    expect(doShortcode('[[gallery]]')).toBe('[gallery]');
    expect(doShortcode('[unknown]')).toBe('[unknown]');
  });

  it('does not run shortcodes inside HTML attributes', () => {
    expect(doShortcode('<a title="[gallery]">x</a> [gallery]')).toBe('<a title="[gallery]">x</a> ');
  });

  it('links an [embed] URL (no oEmbed provider here)', () => {
    expect(runEmbedShortcode('[embed]https://example.com/?a=1&amp;b=2[/embed]')).toBe('<a href="https://example.com/?a=1&#038;b=2">https://example.com/?a=1&amp;b=2</a>');
    expect(runEmbedShortcode('[embed src="https://example.com/"]')).toBe('<a href="https://example.com/">https://example.com/</a>');
    expect(runEmbedShortcode('[embed]')).toBe('');
  });

  it('parses attributes as shortcode_parse_atts does', () => {
    expect({ ...shortcodeParseAtts(' ID="c1" align=\'left\' width=300 "pos" bare') }).toEqual({ 0: 'pos', 1: 'bare', id: 'c1', align: 'left', width: '300' });
    expect({ ...shortcodeParseAtts(' a="<b"') }).toEqual({ a: '' });
  });
});

describe('smilies, content tags, capital P', () => {
  it('converts smilies to emoji (and :mrgreen: to an image) outside tags and code', () => {
    expect(convertSmilies('Hi :-) there ;-)', SITE)).toBe('Hi \u{1F642} there \u{1F609}');
    expect(convertSmilies('8-) :mrgreen: :?:', SITE)).toBe(
      `\u{1F60E} <img src="${SITE}/wp-includes/images/smilies/mrgreen.png" alt=":mrgreen:" class="wp-smiley" style="height: 1em; max-height: 1em;" /> \u2753`,
    );
    expect(convertSmilies('a:)', SITE)).toBe('a:)');
    expect(convertSmilies('<code>:)</code> :)', SITE)).toBe('<code>:)</code> \u{1F642}');
    expect(convertSmilies('<img alt=":)"> x', SITE)).toBe('<img alt=":)"> x');
  });

  it('adds decoding="async" to images, and loading="lazy" to sized images and iframes', () => {
    expect(filterContentTags('<img src="x.png" alt="a">')).toBe('<img decoding="async" src="x.png" alt="a">');
    expect(filterContentTags('<img src="x.png" width="10" height="20">')).toBe('<img loading="lazy" decoding="async" src="x.png" width="10" height="20">');
    expect(filterContentTags('<img decoding="sync" src="x">')).toBe('<img decoding="sync" src="x">');
    expect(filterContentTags("<img src='x'>")).toBe("<img src='x'>");
    expect(filterContentTags('<iframe src="x" width="1" height="2"></iframe>')).toBe('<iframe loading="lazy" src="x" width="1" height="2"></iframe>');
  });

  it('fixes "Wordpress" in content only after a space, quote, tag or parenthesis', () => {
    expect(renderContent('Wordpress and wordpress, I love Wordpress')).toBe('<p>WordPress and wordpress, I love WordPress</p>');
    expect(renderContent('xWordpress')).toBe('<p>xWordpress</p>');
    expect(renderTitle('Wordpress meetup')).toBe('WordPress meetup');
  });
});

describe('escaping', () => {
  it('normalizes entities as wp_kses_normalize_entities', () => {
    expect(normalizeEntities('&amp; &foo; &#39; &#x0027; &#0; &#99999999; &AMP; & x')).toBe('&amp; &amp;foo; &#039; &#x27;  &amp;#99999999; &amp;AMP; &amp; x');
  });

  it('escapes as esc_html, esc_js and _wp_specialchars', () => {
    expect(escHtml(`Tom & "Jerry's" <b>`)).toBe('Tom &amp; &quot;Jerry&#039;s&quot; &lt;b&gt;');
    expect(escHtml('&amp; &nbsp; &apos;')).toBe('&amp; &nbsp; &amp;apos;');
    expect(escHtml('bad \ud800 utf-8')).toBe('');
    expect(escJs(`<p>"It's"</p>\r\nnext \\ slash`)).toBe("&lt;p&gt;&quot;It\\'s&quot;&lt;/p&gt;\\nnext  slash");
    expect(escJs('&#039; &#x27;')).toBe("\\' \\'");
    expect(specialchars('a < b & "c"', 'noquotes')).toBe('a &lt; b &amp; "c"');
  });

  it('converts lone ampersands as convert_chars (with its look-ahead quirk)', () => {
    expect(convertChars('AT&T & &amp; &#1; &x;')).toBe('AT&#038;T &#038; &amp; &#1; &#038;x;');
  });

  it('cleans URLs as esc_url', () => {
    expect(escUrl('https://example.com/?q="x"&y=\'z\'')).toBe('https://example.com/?q=x&#038;y=&#039;z&#039;');
    expect(escUrl('HTTP://EXAMPLE.COM/UPPER')).toBe('http://EXAMPLE.COM/UPPER');
    expect(escUrl('example.com/a b')).toBe('http://example.com/a%20b');
    expect(escUrl('javascript:alert(1)')).toBe('');
    expect(escUrl('0')).toBe('http://0');
  });

  it('handles slashes as PHP does', () => {
    expect(stripslashes('a\\b\\\\c\\')).toBe('ab\\c');
    expect(addslashes(`a'b"c\\`)).toBe(`a\\'b\\"c\\\\`);
  });
});

describe('sanitize_text_field and tag stripping', () => {
  it.each([
    ['one is < two', 'one is &lt; two'],
    ['one is <\n two', 'one is &lt; two'],
    ['foo <div\n> bar', 'foo bar'],
    ['tags <span>are</span> <em>not allowed</em> here', 'tags are not allowed here'],
    [' trim me ', 'trim me'],
    ['inner  \t spaces\n and lines', 'inner spaces and lines'],
    ['We also %AB remove %ab octets', 'We also remove octets'],
    ['%AB%BC%DE', ''],
    ['Invalid octets remain %II', 'Invalid octets remain %II'],
    ['Nested octets %%%ABABAB %A%A%ABBB', 'Nested octets'],
    ['<script>alert(1)</script>x', 'x'],
    ['<=>', ''],
    ['<3', '&lt;3'],
    ['a > b', 'a > b'],
    ['bad \udc00', ''],
  ])('%j -> %j', (input, expected) => {
    expect(sanitizeTextField(input)).toBe(expected);
  });

  it('strips tags as PHP strip_tags', () => {
    expect(phpStripTags('a <b>c</b> < d <!-- x --> e <?php echo 1; ?> f <a title="x>y">g</a>')).toBe('a c < d  e  f g');
    expect(phpStripTags('a<b')).toBe('a');
    expect(wpStripAllTags(' x<style>p{}</style>y <SCRIPT>z</script> ')).toBe('xy');
    expect(preKsesLessThan('a < b <c> d <')).toBe('a &lt; b <c> d &lt;');
  });

  it('trims words as wp_trim_words', () => {
    expect(wpTrimWords('<p>one two</p>\n<p>three</p>', 2, '…')).toBe('one two…');
    expect(wpTrimWords(' one  two ', 2, '…')).toBe('one two');
  });
});

describe('the filters together', () => {
  it('renders a title as the_title', () => {
    expect(renderTitle(`Jazz & Blues: "Late" Night at Joe's -- 3x4 ...`)).toBe('Jazz &#038; Blues: &#8220;Late&#8221; Night at Joe&#8217;s &#8212; 3&#215;4 &#8230;');
    expect(renderTitle('  <b>x</b>  ')).toBe('<b>x</b>');
    expect(renderTitle('\u00a0x\u00a0')).toBe('\u00a0x\u00a0');
  });

  it('renders content as the_content and excerpts as the_excerpt', () => {
    expect(renderContent('An evening concert.')).toBe('<p>An evening concert.</p>');
    expect(renderContent('[gallery]')).toBe('');
    expect(renderContent('[[gallery]]')).toBe('<p>[gallery]</p>');
    expect(renderContent('[embed]https://example.com/[/embed]')).toBe('<p><a href="https://example.com/">https://example.com/</a></p>');
    expect(renderContent('<img src="x.png" alt="a">')).toBe('<p><img decoding="async" src="x.png" alt="a"></p>');
    expect(renderContent('   ')).toBe('');
    expect(renderExcerpt('[gallery]')).toBe('[gallery]');
    expect(renderExcerpt('Wordpress :)')).toBe('<p>Wordpress \u{1F642}</p>');
  });

  it('renders block markup without its delimiters and without autop', () => {
    const blocks = '<!-- wp:paragraph -->\n<p>One "two"</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:separator {"opacity":"css"} /-->';
    expect(stripBlockDelimiters(blocks)).toBe('\n<p>One "two"</p>\n\n\n');
    expect(renderContent(blocks)).toBe('<p>One &#8220;two&#8221;</p>');
  });

  it('names terms as WordPress saves them', () => {
    expect(renderTermName('Tom & Jerry')).toBe('Tom &amp; Jerry');
    expect(renderTermName(' <b>"Rock"</b>\n& roll > ')).toBe('"Rock" &amp; roll &gt;');
    expect(renderTermName('&foo; &copy;')).toBe('&amp;foo; &copy;');
    const once = renderTermName(`a < b & c's "d" %20 <i>e</i>`);
    expect(renderTermName(once)).toBe(once);
  });

  it('gives JSON-LD text as TEC does', () => {
    expect(jsonLdName(`Joe's "Bar"`)).toBe('Joe&#8217;s &#8220;Bar&#8221;');
    expect(jsonLdDescription('Evening concert', 'ignored')).toBe('&lt;p&gt;Evening concert&lt;/p&gt;\\n');
    expect(jsonLdDescription('', '<p>A <b>b</b> [gallery] c</p>')).toBe('&lt;p&gt;A b c&lt;/p&gt;\\n');
    const long = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(tecExcerpt('', long)).toBe(`<p>${Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ')} [&hellip;]</p>\n`);
    expect(tecExcerpt('<a href="x" title="t" class="c">a</a> <p>p</p> <img src="y">', '')).toBe('<p><a href="x" class="c">a</a> p </p>\n');
    expect(removeBracketed('[a] [b\nc] [] ]')).toBe(' [b\nc] ');
  });
});

describe('robustness', () => {
  const renderers: Array<[string, (s: string) => string]> = [
    ['title', renderTitle],
    ['content', renderContent],
    ['excerpt', renderExcerpt],
    ['term name', renderTermName],
    ['json-ld name', jsonLdName],
    ['json-ld description', (s) => jsonLdDescription('', s)],
    ['json-ld excerpt', (s) => jsonLdDescription(s, '')],
    ['sanitize_text_field', sanitizeTextField],
    ['esc_url', escUrl],
  ];
  const pieces = [
    '<',
    '>',
    '[',
    ']',
    '/',
    '"',
    "'",
    '-',
    '.',
    'x',
    '1',
    '0',
    '&',
    '#',
    ';',
    ' ',
    '\n',
    '\r',
    '\t',
    '\u00a0',
    ':',
    ')',
    '8',
    'p',
    'div',
    'caption',
    'gallery',
    'embed',
    'img src="a" width="1" height="2"',
    '!--',
    '-->',
    'pre',
    'br',
    '\ud800',
    '\udc00',
    '\u0000',
    '%2',
    '<!-- wp:p {"a":1} -->',
    'Wordpress',
    '&nbsp;',
    '=',
    '\\',
    'script',
    'li',
    'blockquote',
    'option',
    '...',
    'ё',
    '\u{1F389}',
  ];

  it('never throws and always answers a string', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < 1500; i++) {
      let s = '';
      const n = Math.floor(rnd() * 24);
      for (let k = 0; k < n; k++) s += pieces[Math.floor(rnd() * pieces.length)];
      for (const [, render] of renderers) expect(typeof render(s)).toBe('string');
    }
  });

  // Quadratic work on these would take minutes: the test's own time limit is the guard (speed
  // itself is not asserted here). The output grows at most linearly too.
  it('renders large hostile input, with output that grows linearly', { timeout: 120_000 }, () => {
    const MB = 1 << 18; // a quarter megabyte: quadratic work would take minutes
    const hostile = [
      `${' '.repeat(MB)}x\n`,
      '<'.repeat(MB),
      '<div '.repeat(MB / 5),
      '<p><li'.repeat(MB / 6),
      '[caption <'.repeat(MB / 10),
      `1x1 ${'1.'.repeat(MB / 2)}`,
      '"'.repeat(MB),
      '&#1'.repeat(MB / 3),
      '<!--'.repeat(MB / 4),
      `${'<script>'.repeat(MB / 8)}\n`,
      '%'.repeat(MB / 2) + '20'.repeat(MB / 2),
      '\ud800'.repeat(MB),
    ];
    const heavy = renderers.filter(([name]) => ['content', 'excerpt', 'term name', 'json-ld description'].includes(name));
    for (const input of hostile) {
      for (const [name, render] of heavy) {
        const out = render(input);
        expect(typeof out, name).toBe('string');
        expect(out.length, `${name} on ${JSON.stringify(input.slice(0, 12))}…`).toBeLessThan(input.length * 8 + 1_000);
      }
    }
  });
});

describe('legacy helpers', () => {
  it('escapeHtml encodes like htmlspecialchars with ENT_QUOTES', () => {
    expect(escapeHtml(`Tom & "Jerry's"`)).toBe('Tom &amp; &quot;Jerry&#039;s&quot;');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});
