import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ksesPost, ksesTermDescription, ksesTitle } from '#lib/wp/kses/filters.js';

// Expected outputs come from the live TEC corpus, from WordPress's own kses test suite
// (tests/phpunit/tests/kses.php, translated to input/output pairs) or were worked out from
// WordPress 6.8's kses.php; the comments say which.

const corpusFile = fileURLToPath(new URL('../corpus/tec/text.jsonl', import.meta.url));

interface CorpusRow {
  kind: string;
  field: string;
  variant: string;
  input: string;
  create: string | { error: { code: string } } | null;
}

describe('TEC corpus: term descriptions (wp_filter_kses for every user)', () => {
  // Read at test time: a missing corpus fails the suite (readFileSync throws), it never skips.
  const rows = readFileSync(corpusFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusRow)
    .filter((row) => (row.kind === 'category' || row.kind === 'tag') && row.field === 'description');
  const answered = rows.filter((row): row is CorpusRow & { create: string } => typeof row.create === 'string');

  it('has the rows this test relies on', () => {
    expect(rows.length).toBe(536);
    expect(answered.length).toBe(480);
    // The others are refused terms (duplicate or invalid name, empty description): nothing to filter.
    for (const row of rows) {
      if (typeof row.create !== 'string') expect(row.create).toHaveProperty('error');
    }
  });

  it('ksesTitle and ksesTermDescription give what TEC stored, for every row', () => {
    const mismatches = answered.flatMap((row) => {
      const title = ksesTitle(row.input);
      const term = ksesTermDescription(row.input);
      return title === row.create && term === row.create ? [] : [{ input: row.input, expected: row.create, title, term }];
    });
    expect(mismatches).toEqual([]);
  });

  it('does not trim (WordPress keeps the surrounding whitespace of term descriptions)', () => {
    const padded = answered.filter((row) => row.input !== row.input.trim());
    expect(padded.length).toBeGreaterThan(10);
    for (const row of padded) expect(ksesTitle(row.input)).toBe(row.create);
    expect(ksesTitle('  both  ')).toBe('  both  ');
  });
});

describe('elements', () => {
  it('drops disallowed elements and keeps their text (script and style text included)', () => {
    expect(ksesPost('<script>alert(1)</script>')).toBe('alert(1)');
    expect(ksesPost('<style>p{color:red}</style>x')).toBe('p{color:red}x');
    expect(ksesPost('<iframe src="https://evil.example/"></iframe>x')).toBe('x');
    expect(ksesPost('<embed src="x.swf">')).toBe('');
    expect(ksesPost('<form action="/x"><input name="q"><button>Go</button></form>')).toBe('<button>Go</button>');
    expect(ksesPost('<svg onload="alert(1)"><circle r="1"/></svg>')).toBe('');
    expect(ksesPost('<SCRIPT SRC=http://x/xss.js></SCRIPT>')).toBe('');
    expect(ksesTitle('<script>alert(1)</script>')).toBe('alert(1)');
  });

  it('keeps block elements in posts and strips them from titles', () => {
    const html = '<p>One</p><div align="center">Two</div><h2>T</h2><ul><li>a</li></ul>';
    expect(ksesPost(html)).toBe(html);
    expect(ksesTitle(html)).toBe('OneTwoTa');
  });

  it('keeps the case of element and attribute names as written (WordPress does not lowercase)', () => {
    expect(ksesPost('<P ALIGN="left">x</P>')).toBe('<P ALIGN="left">x</P>');
    expect(ksesTitle('<B>x</B>')).toBe('<B>x</B>');
  });

  it('keeps self-closing slashes as " /"', () => {
    expect(ksesPost('a<br>b')).toBe('a<br>b');
    expect(ksesPost('a<br/>b')).toBe('a<br />b');
    expect(ksesPost('a<br   />b')).toBe('a<br />b');
    expect(ksesPost('<hr size="2"/>')).toBe('<hr size="2" />');
    expect(ksesTitle('<b/>')).toBe('<b />');
  });

  it('allows the elements of WordPress tests: bdo, ruby, ol reversed, main, img', () => {
    for (const html of [
      '<p>This is <bdo dir="rtl">a BDO tag</bdo>. Weird, <bdo dir="ltr">right?</bdo></p>',
      '<ruby>✶<rp>: </rp><rt>Star</rt><rp>, </rp><rt lang="fr">Étoile</rt><rp>.</rp></ruby>',
      '<ol reversed="reversed"><li>Item 1</li><li>Item 2</li><li>Item 3</li></ol>',
      '<main class="wp-group-block" style="padding:10px" />',
      '<img loading="lazy" src="https://example.com/img.jpg" width="1000" height="1000" alt="" class="wp-image-1000" />',
    ]) {
      expect(ksesPost(html)).toBe(html);
    }
  });

  it('strips unknown (hyphenated) elements (WordPress test_hyphenated_tag)', () => {
    const html = '<hyphenated-tag attribute="value" otherattribute="value2">Alot of hyphens.</hyphenated-tag>';
    expect(ksesPost(html)).toBe('Alot of hyphens.');
  });

  it('handles nested, unclosed and malformed tags one token at a time', () => {
    expect(ksesPost('<b><i>x</b></i>')).toBe('<b><i>x</b></i>');
    expect(ksesPost('<b>unclosed')).toBe('<b>unclosed');
    expect(ksesPost('</b>stray')).toBe('</b>stray');
    expect(ksesPost('<:::>x')).toBe('x');
    expect(ksesPost('<=>')).toBe('');
    expect(ksesPost('<?php echo 1; ?>')).toBe('');
    expect(ksesPost('<b <i>x')).toBe('&lt;b <i>x');
    // `<` + spaces + a name is still a tag for kses: "a < b > c" keeps a <b>.
    expect(ksesPost('a < b > c')).toBe('a <b> c');
    expect(ksesPost('</b foo="x">')).toBe('</b>');
  });
});

describe('text, entities and control characters', () => {
  it('escapes a < that starts no tag and a lone >', () => {
    expect(ksesTitle('a < b')).toBe('a &lt; b');
    expect(ksesTitle('<3')).toBe('&lt;3');
    expect(ksesTitle('->')).toBe('-&gt;');
    // Closed by a later `>`, `<3 and ->` is a tag named "3" and goes as a whole.
    expect(ksesTitle('<3 and ->')).toBe('');
    expect(ksesTitle('x > y')).toBe('x &gt; y');
    expect(ksesTitle("<a title='unterminated")).toBe('&lt;a title=&#039;unterminated');
    expect(ksesTitle('1 < "2"')).toBe('1 &lt; &quot;2&quot;');
  });

  it('normalizes entities as WordPress 6.8 does', () => {
    expect(ksesTitle('AT&T & co')).toBe('AT&amp;T &amp; co');
    expect(ksesTitle('&nbsp;&copy;&hellip;&spades;&sup2;&frac34;&there4;&apos;')).toBe('&nbsp;&copy;&hellip;&spades;&sup2;&frac34;&there4;&apos;');
    expect(ksesTitle('&foo; &AMP; &colon;')).toBe('&amp;foo; &amp;AMP; &amp;colon;');
    expect(ksesTitle('&#39; &#0039; &#x27; &#X27; &#x0041;')).toBe('&#039; &#039; &#x27; &#x27; &#x41;');
    expect(ksesTitle('&#99999999; &#xD800; &#; &#65')).toBe('&amp;#99999999; &amp;#xD800; &amp;#; &amp;#65');
    // PHP's empty('0'): these two vanish.
    expect(ksesTitle('a&#0;b&#x0;c')).toBe('abc');
    // Named references are restored before numeric ones, so an escaped reference comes back.
    expect(ksesTitle('&amp;#39;')).toBe('&#039;');
  });

  it('removes C0 controls except tab, newline and carriage return (WordPress test_ctrl_removal)', () => {
    const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code))
      .filter((ch) => !'\t\n\r'.includes(ch))
      .join('');
    expect(ksesPost(controls)).toBe('');
    expect(ksesPost('\x00h\x01e\x02l\x03l\x04o\x05 \x06w\x07o\x08r\x0Bl\x0Cd\x0E.\x0F \x10W\x11O\x12R\x13D\x14P\x15R\x16E\x17S\x18S\x19 \x1AK\x1BS\x1CE\x1DS\x1E.\x1F/')).toBe(
      'hello world. WORDPRESS KSES./',
    );
    expect(ksesPost('\t\r\n word \n\r\t')).toBe('\t\r\n word \n\r\t');
    expect(ksesTitle('a\x7fb')).toBe('a\x7fb');
  });

  it('keeps `\\0` in text but not in styles (WordPress test_slash_zero_removal)', () => {
    expect(ksesPost('This \\0 should be no big deal.')).toBe('This \\0 should be no big deal.');
    expect(ksesPost('<div align="\\0left">x</div>')).toBe('<div align="\\0left">x</div>');
    expect(ksesPost('This <div style="float:\\0left"> is more of a concern.')).toBe('This <div style="float:left"> is more of a concern.');
    expect(ksesPost('<div style="float:\\\\00left">')).toBe('<div style="float:left">');
    expect(ksesPost('<div style="float:\\0000left">')).toBe('<div style="float:left">');
    expect(ksesPost('<style type="text/css">div {background-image:\\0}</style>')).toBe('div {background-image:\\0}');
  });

  it('keeps Unicode as it is', () => {
    const text = 'Vilniaus šventė „Lietuviškos“ 🎉 👨\u200d👩\u200d👧 日本語 é';
    expect(ksesPost(text)).toBe(text);
    expect(ksesTitle(`<em>${text}</em>`)).toBe(`<em>${text}</em>`);
  });
});

describe('comments', () => {
  it('keeps comments and filters their text', () => {
    expect(ksesTitle('<!-- comment -->')).toBe('<!-- comment -->');
    expect(ksesPost('x <!-- a & b -- "c" --> y')).toBe('x <!-- a &amp; b - "c" --> y');
    // A tag inside a comment means the `<!--` is not followed by `>` before the next `<`:
    // WordPress escapes it as text first, so the comment does not survive.
    expect(ksesPost('x <!-- <script>a</script> <b onclick="y">b</b> --> y')).toBe('x &lt;!-- a <b>b</b> --&gt; y');
    expect(ksesPost('<!---->')).toBe('');
    expect(ksesPost('<!-- a -- b --- c -->')).toBe('<!-- a - b - c -->');
    expect(ksesPost('<!--a--->')).toBe('<!--a-->');
    expect(ksesPost('<!-- unclosed')).toBe('&lt;!-- unclosed');
    expect(ksesPost('<!-- two\nlines > x')).toBe('<!-- two\nlines &gt;--> x');
  });

  it('gives the results WordPress asserts for XSS cheat-sheet attacks (test_hackers_attacks)', () => {
    // wp_kses_data uses $allowedtags, as titles do; WordPress trims the result in that test.
    const attacks: [string, string][] = [
      ["<!--[if gte IE 4]>\n<SCRIPT>alert('XSS');</SCRIPT>\n<![endif]-->", "<!--[if gte IE 4]&gt;-->\nalert('XSS');"],
      ['<META HTTP-EQUIV="Link" Content="<http://ha.ckers.org/xss.css>; REL=stylesheet">', '&lt;META HTTP-EQUIV=&quot;Link&quot; Content=&quot;; REL=stylesheet"&gt;'],
      [`<XML ID="xss"><I><B><IMG SRC="javas<!-- -->cript:alert('XSS')"></B></I></XML>`, `<I><B>&lt;IMG SRC=&quot;javas<!-- -->cript:alert('XSS')"&gt;</B></I>`],
      [`<IMG SRC="javascript:alert('XSS')"`, '&lt;IMG SRC=&quot;javascript:alert(&#039;XSS&#039;)&quot;'],
      ['<IFRAME SRC=http://ha.ckers.org/scriptlet.html <', '&lt;IFRAME SRC=http://ha.ckers.org/scriptlet.html &lt;'],
      ['<<SCRIPT>alert("XSS");//<</SCRIPT>', '&lt;alert("XSS");//&lt;'],
      ['<IMG """><SCRIPT>alert("XSS")</SCRIPT>">', 'alert("XSS")"&gt;'],
      ['<SCRIPT a=">" SRC="http://ha.ckers.org/xss.js"></SCRIPT>', '" SRC="http://ha.ckers.org/xss.js"&gt;'],
      ['<SCRIPT>document.write("<SCRI");</SCRIPT>PT SRC="http://ha.ckers.org/xss.js"></SCRIPT>', 'document.write("&lt;SCRI&quot;);PT SRC="http://ha.ckers.org/xss.js"&gt;'],
    ];
    for (const [attack, expected] of attacks) expect([attack, ksesTitle(attack).trim()]).toEqual([attack, expected]);
  });

  it('keeps "bogus comments" (`</ …>`, `<!x…>`) as WordPress 6.6+ does', () => {
    expect(ksesPost('</ b>')).toBe('</ b>');
    expect(ksesPost('<!doctype html>')).toBe('<!doctype html>');
    expect(ksesPost('<!DOCTYPE html>')).toBe('');
    expect(ksesPost('</ x="1" onclick=1>')).toBe('</ x="1" onclick=1>');
    expect(ksesPost('</ <b onclick=1>')).toBe('&lt;/ <b>');
  });
});

describe('attributes', () => {
  it('drops on* attributes and anything not allowed for the element', () => {
    expect(ksesPost('<b onclick="alert(1)">x</b>')).toBe('<b>x</b>');
    expect(ksesPost('<img src="x.png" onerror="alert(1)" alt="a">')).toBe('<img src="x.png" alt="a">');
    expect(ksesPost('<p onmouseover=alert(1) class="c">x</p>')).toBe('<p class="c">x</p>');
    expect(ksesPost('<a href="x" target="_blank" rel="noopener" onclick="y">x</a>')).toBe('<a href="x" target="_blank" rel="noopener">x</a>');
    expect(ksesTitle('<a href="x" target="_blank" rel="noopener">x</a>')).toBe('<a href="x">x</a>');
    expect(ksesTitle('<a href="x" title="t" class="c">x</a>')).toBe('<a href="x" title="t">x</a>');
  });

  it('lets term descriptions keep rel and target on links (WordPress 6.8 pre_term_description)', () => {
    expect(ksesTermDescription('<a href="x" target="_blank" rel="nofollow" class="c">x</a>')).toBe('<a href="x" target="_blank" rel="nofollow">x</a>');
    expect(ksesTermDescription('<p>para</p>')).toBe('para');
  });

  it('rebuilds values: unquoted get double quotes, single quotes stay, duplicates keep the first', () => {
    expect(ksesPost('<a href=x title=y>t</a>')).toBe('<a href="x" title="y">t</a>');
    expect(ksesPost("<a title='it\"s'>t</a>")).toBe("<a title='it\"s'>t</a>");
    expect(ksesPost('<a title  =  "spaced">t</a>')).toBe('<a title="spaced">t</a>');
    expect(ksesPost('<a title="one" title="two">t</a>')).toBe('<a title="one">t</a>');
    expect(ksesPost('<a title="x"y>t</a>')).toBe('<a>t</a>');
    expect(ksesPost('<a href=>t</a>')).toBe('<a>t</a>');
    expect(ksesPost('<a title=\\"x\\">t</a>')).toBe('<a title="x">t</a>');
  });

  it('checks valueless attributes', () => {
    expect(ksesPost('<a download>f</a>')).toBe('<a download>f</a>');
    expect(ksesPost('<a download="x">f</a>')).toBe('<a>f</a>');
    expect(ksesPost('<details open><summary>s</summary></details>')).toBe('<details open><summary>s</summary></details>');
    // A valueless attribute right before `/>` is lost (a known WordPress limitation).
    expect(ksesPost('<video controls/>')).toBe('<video />');
  });

  it('allows data-* and the listed aria-* attributes in posts (WordPress test_wp_kses_attr_data_attribute_is_allowed)', () => {
    const html =
      '<div data-foo="foo" data-bar="bar" datainvalid="gone" data--double-dash="retained"  data-trailing-dash-="allowable" data-two-hyphens="remains">Pens and pencils</div>';
    expect(ksesPost(html)).toBe(
      '<div data-foo="foo" data-bar="bar" data--double-dash="retained" data-trailing-dash-="allowable" data-two-hyphens="remains">Pens and pencils</div>',
    );
    expect(ksesPost('<div data-x.y="1" data-="2" DATA-Up="3">x</div>')).toBe('<div DATA-Up="3">x</div>');
    expect(ksesPost('<span aria-label="l" aria-hidden="true" aria-live="polite" aria-pressed="true" role="note">x</span>')).toBe(
      '<span aria-label="l" aria-hidden="true" aria-live="polite" role="note">x</span>',
    );
    expect(ksesTitle('<b data-x="1">x</b>')).toBe('<b>x</b>');
  });

  it('keeps the attributes of WordPress test_wp_filter_post_kses_address / _a / _abbr', () => {
    const cases: [string, string][] = [
      ["<address class='classname'>1 WordPress Avenue, The Internet.</address>", "<address class='classname'>1 WordPress Avenue, The Internet.</address>"],
      ["<address style='color: red;'>1 WordPress Avenue, The Internet.</address>", "<address style='color: red'>1 WordPress Avenue, The Internet.</address>"],
      ["<address style='color: red; text-align:center;'>x</address>", "<address style='color: red;text-align:center'>x</address>"],
      ["<a rel='related'>I link this</a>", "<a rel='related'>I link this</a>"],
      ["<a rev='revision'>I link this</a>", "<a rev='revision'>I link this</a>"],
      ["<a name='name'>I link this</a>", "<a name='name'>I link this</a>"],
      ["<a href='http://example.com'>I link this</a>", "<a href='http://example.com'>I link this</a>"],
      ["<abbr style='color: red;'>WP</abbr>", "<abbr style='color: red'>WP</abbr>"],
    ];
    for (const [input, expected] of cases) expect(ksesPost(input)).toBe(expected);
  });

  it('filters video attributes (WordPress test_wp_kses_video)', () => {
    const video = '<video src="movie.mov" autoplay controls height=9 loop muted poster="still.gif" playsinline preload width=16 />';
    expect(ksesPost(video)).toBe('<video src="movie.mov" autoplay controls height="9" loop muted poster="still.gif" playsinline preload width="16" />');
    expect(ksesTitle(video)).toBe('');
    expect(ksesPost('<video src="bad://w.org/movie.mov" poster="bad://w.org/movie.jpg" />')).toBe('<video src="//w.org/movie.mov" poster="//w.org/movie.jpg" />');
    expect(ksesPost('<video onload="alert(1);" src="https://videos.files.wordpress.com/DZEMDKxc/video-0f9c363010.mp4" />')).toBe(
      '<video src="https://videos.files.wordpress.com/DZEMDKxc/video-0f9c363010.mp4" />',
    );
  });

  it('allows PDF objects from the uploads host only (WordPress test_wp_kses_object_tag_allowed)', () => {
    const uploads = { uploadsUrl: 'http://example.org/wp-content/uploads/2045/01' };
    const pdf = '<object type="application/pdf" data="https://example.org/foo.pdf" />';
    expect(ksesPost(pdf, uploads)).toBe(pdf);
    expect(ksesPost(pdf)).toBe('');
    const cases: [string, string][] = [
      ['<object type="application/exe" data="https://example.org/foo.exe" />', ''],
      ['<object type="application/pdf" type="application/exe" data="https://example.org/foo.pdf" />', pdf],
      ['<object TYPE="application/pdf" type="application/exe" data="https://example.org/foo.pdf" />', '<object TYPE="application/pdf" data="https://example.org/foo.pdf" />'],
      ['<object type="application/exe" TYPE="application/pdf" data="https://example.org/foo.pdf" />', ''],
      ['<object type="application/pdf" data="https://example.org/foo.pdf?lol=.pdf" />', ''],
      ['<object type="application/pdf" data="//example.org/foo.pdf" />', ''],
      ['<object type="application/pdf" data="ftp://example.org/foo.pdf" />', ''],
      ['<object type="application/pdf" data="https://example.org/cat:8888/foo.pdf" />', '<object type="application/pdf" data="https://example.org/cat:8888/foo.pdf" />'],
      ['<object data="https://example.org/foo.pdf">x</object>', '<object>x</object>'],
    ];
    for (const [input, expected] of cases) expect(ksesPost(input, uploads)).toBe(expected);
    const withPort = { uploadsUrl: 'https://example.org:8888/wp-content/uploads' };
    expect(ksesPost('<object type="application/pdf" data="http://example.org:8888/cat/foo.pdf" />', withPort)).toBe(
      '<object type="application/pdf" data="http://example.org:8888/cat/foo.pdf" />',
    );
    expect(ksesPost('<object type="application/pdf" data="http://example.org/cat/foo.pdf" />', withPort)).toBe('');
  });
});

describe('URL protocols', () => {
  const href = (url: string): string => {
    const out = ksesPost(`<a href="${url}">x</a>`);
    const match = /^<a href="([^"]*)">x<\/a>$/.exec(out);
    if (match === null) throw new Error(`unexpected output ${out}`);
    return match[1]!;
  };

  it('removes disallowed protocols however they are written (WordPress test_wp_kses_bad_protocol)', () => {
    const bad = [
      'dummy:alert(1)',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'javascript:alert(1);',
      'javascript&#58;alert(1);',
      'javascript&#0058;alert(1);',
      'javascript&#x3A;alert(1);',
      'javascript&#X3A;alert(1);',
      'javascript&#X3a;alert(1);',
      'javascript&#x3a;alert(1);',
      'javascript&#x003a;alert(1);',
      'jav\tascript:alert(1);',
      'jav&#x09;ascript:alert(1);',
      'jav&#x0A;ascript:alert(1);',
      'jav&#x0D;ascript:alert(1);',
      ' &#14;  javascript:alert(1);',
      'javascript:javascript:alert(1);',
      'javascript&#58;javascript:alert(1);',
      'javascript:javascript&#58;alert(1);',
      'feed:javascript:feed:javascript:feed:javascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
    ];
    for (const url of bad) expect(['', 'alert(1)', 'alert(1);', 'msgbox(1)', 'text/html;base64,PHNjcmlwdD4=']).toContain(href(url));
    // The cases WordPress's test names, with the results it asserts.
    expect(href('javascript&#0000058alert(1);')).toBe('javascript&amp;#0000058alert(1);');
    expect(href('&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29')).toBe(
      '&amp;#x6A&amp;#x61&amp;#x76&amp;#x61&amp;#x73&amp;#x63&amp;#x72&amp;#x69&amp;#x70&amp;#x74&amp;#x3A&amp;#x61&amp;#x6C&amp;#x65&amp;#x72&amp;#x74&amp;#x28&amp;#x27&amp;#x58&amp;#x53&amp;#x53&amp;#x27&amp;#x29',
    );
    expect(href('javascript:javascript&#0000058alert(1);')).toBe('javascript&amp;#0000058alert(1);');
    expect(href('javascript&#0000058alert(1)//?:')).toBe('javascript&amp;#0000058alert(1)//?:');
    expect(href('feed:javascript:alert(1)')).toBe('feed:alert(1)');
    expect(href('javascript&#58alert(1)')).toBe('javascript&amp;#58alert(1)');
    expect(href('javascript&#x3ax=1;alert(1)')).toBe('javascript&amp;#x3ax=1;alert(1)');
  });

  it('decodes obfuscated schemes (numeric references, PHP chr() wrapping at 256)', () => {
    expect(href('jav&#x61;script:alert(1)')).toBe('alert(1)');
    expect(href('&#106;avascript:alert(1)')).toBe('alert(1)');
    expect(href('&#362;avascript:alert(1)')).toBe('alert(1)');
    expect(href('java&#32;script:alert(1)')).toBe('alert(1)');
    expect(href('javascript&colon;alert(1)')).toBe('javascript&amp;colon;alert(1)');
  });

  it('keeps allowed protocols and relative URLs', () => {
    for (const url of [
      'https://example.com/a?b=1&amp;c=2',
      'http://example.com',
      'mailto:a@example.com',
      'tel:+370600',
      'ftp://x/y',
      'webcal://x',
      'urn:isbn:1',
      '/relative/path',
      '#frag',
      'page.html',
      'a--b',
    ]) {
      expect(href(url)).toBe(url);
    }
    expect(href('http&#58;//example.org/')).toBe('http://example.org/');
    expect(href('HTTP://example.org/')).toBe('http://example.org/');
    expect(href('http://example.org/index.php?test=&#039;blah&#039;')).toBe('http://example.org/index.php?test=&#039;blah&#039;');
    expect(href('a&b')).toBe('a&amp;b');
  });

  it('follows WordPress on feed: nesting and on colons after a query (quirks kept)', () => {
    expect(href('feed:feed:javascript:alert(1)')).toBe('feed:feed:alert(1)');
    expect(href('feed:feed:feed:javascript:alert(1)')).toBe('');
    expect(href('feed:feed:feed:http:alert(1)')).toBe('');
    expect(href('/page?a=b:c')).toBe('c');
    expect(href('http:javascript:alert(1)')).toBe('http:javascript:alert(1)');
  });

  it('applies to every URI attribute', () => {
    expect(ksesPost('<img src="javascript:alert(1)">')).toBe('<img src="alert(1)">');
    expect(ksesPost('<blockquote cite="vbscript:x">q</blockquote>')).toBe('<blockquote cite="x">q</blockquote>');
    expect(ksesPost('<img longdesc="data:text/html,x">')).toBe('<img longdesc="text/html,x">');
    expect(ksesPost('<a title="javascript:not-a-url">t</a>')).toBe('<a title="javascript:not-a-url">t</a>');
  });
});

describe('style attributes (safecss_filter_attr)', () => {
  const style = (css: string): string => {
    const quote = css.includes('"') ? "'" : '"';
    const out = ksesPost(`<span style=${quote}${css}${quote}>x</span>`);
    if (out === '<span>x</span>') return '';
    const match = /^<span style=(["'])(.*)\1>x<\/span>$/s.exec(out);
    if (match === null) throw new Error(`unexpected output ${out}`);
    return match[2]!;
  };

  it('keeps safe CSS and drops the rest (WordPress test_safecss_filter_attr)', () => {
    const cases: [string, string][] = [
      ['foo:bar', ''],
      ['margin-top: 2px', 'margin-top: 2px'],
      ['margin-top: \\2px', ''],
      ['margin-bottom: 2px}', ''],
      ['text-transform: uppercase', 'text-transform: uppercase'],
      ['Text-transform: capitalize', ''],
      ['text-transform: None', 'text-transform: None'],
      ['font: bold 15px arial, sans-serif', 'font: bold 15px arial, sans-serif'],
      ['font-weight: bold; font-size: 15px', 'font-weight: bold;font-size: 15px'],
      ['background: green url("foo.jpg") no-repeat fixed center', 'background: green url("foo.jpg") no-repeat fixed center'],
      ['grid-template: 1em / 20% 20px 1fr', ''],
      ['background: linear-gradient(135deg,rgba(6,147,227,1) 0%,rgb(155,81,224) 100%)', 'background: linear-gradient(135deg,rgba(6,147,227,1) 0%,rgb(155,81,224) 100%)'],
      ['background: linear-gradient(135deg,rgba(6,147,227,1) ) (0%,rgb(155,81,224) 100%)', ''],
      ['color: linear-gradient(red,yellow);', ''],
      ['background-image: linear-gradient(red,yellow); background: prop( red,yellow); width: 100px;', 'background-image: linear-gradient(red,yellow);width: 100px'],
      ['background: unknown-gradient(135deg,rgba(6,147,227,1) 0%,rgb(155,81,224) 100%)', ''],
      ['background: conic-gradient(at 0% 30%, red 10%, yellow 30%, #1e90ff 50%)', 'background: conic-gradient(at 0% 30%, red 10%, yellow 30%, #1e90ff 50%)'],
      ['height: expression( body.scrollTop + 50 + "px" )', ''],
      ['color: rgb( 100, 100, 100 )', ''],
      ['width: clamp(min(100px, 350px), 50%, 500px), 600px)', 'width: clamp(min(100px, 350px), 50%, 500px), 600px)'],
      ['width: calcmax(100px + 50%)', ''],
      ['width: calc(3em + (10px * 2))', 'width: calc(3em + (10px * 2))'],
      ['background-color: var(--wp-var, var(--wp-var-fallback, pink))', 'background-color: var(--wp-var, var(--wp-var-fallback, pink))'],
      ['width: calc(3em + (10px * 2)', ''],
      ['width: (3em + (10px * 2))', ''],
      ['--wp--medium-width: 100px; --var_with_underscores: #cccccc;', '--wp--medium-width: 100px;--var_with_underscores: #cccccc'],
      ['--miXeD-CAse: red; --with-numbers-3_56: red; --with-url-value: url("foo.jpg");', '--miXeD-CAse: red;--with-numbers-3_56: red;--with-url-value: url("foo.jpg")'],
      ['position: sticky;top: 0;left: 0;right: 0;bottom: 0;z-index: 10;', 'position: sticky;top: 0;left: 0;right: 0;bottom: 0;z-index: 10'],
      ['aspect-ratio: calc( 16 / 9;', ''],
      ['aspect-ratio: url( https://wordpress.org/wp-content/uploads/aspect-ratio.jpg );', ''],
      ['filter: url( my-file.svg#svg-blur );', 'filter: url( my-file.svg#svg-blur )'],
      ['grid-template-columns: repeat(auto-fill, minmax(min(12rem, 100%), 1fr))', 'grid-template-columns: repeat(auto-fill, minmax(min(12rem, 100%), 1fr))'],
      ['grid-template-columns: repeat(4, unsupported(0, 1fr)', ''],
      ['writing-mode: vertical-rl', 'writing-mode: vertical-rl'],
      ['background-repeat: no-repeat', 'background-repeat: no-repeat'],
      // Added in WordPress 6.6 (grid-column, container-type) and present in 6.8 (opacity);
      // display and white-space are not.
      ['grid-column: 1 / 3; container-type: inline-size; opacity: .5', 'grid-column: 1 / 3;container-type: inline-size;opacity: .5'],
      ['display: none; white-space: pre', ''],
    ];
    for (const [css, expected] of cases) expect([css, style(css)]).toEqual([css, expected]);
  });

  it('checks url() values (WordPress test_kses_style_attr_with_url)', () => {
    const cases: [string, string][] = [
      ['background-image: url( "http://example.com/valid.gif" );', 'background-image: url( "http://example.com/valid.gif" )'],
      ["background-image: url( '  http://example.com/valid.gif ' );", "background-image: url( '  http://example.com/valid.gif ' )"],
      ["background-image: url(\n'http://example.com/valid.gif' );", "background-image: url('http://example.com/valid.gif' )"],
      ["background-image: url(\t'http://example.com/valid.gif'\t\t);", "background-image: url('http://example.com/valid.gif')"],
      ["background: url('../wp-content/uploads/2018/10/valid.gif');", "background: url('../wp-content/uploads/2018/10/valid.gif')"],
      ['color: url( "http://example.com/invalid.gif" );', ''],
      ['background-image: url( "bad://example.com/invalid.gif" );', ''],
      ["background-image: url( '  \tbad://example.com/invalid.gif ' );", ''],
      ['background-image: url();', ''],
      ['background-image: url( "http://example.com" ;', ''],
      ['background: url(javascript:alert(1))', ''],
      ['background-image: url(&#106;avascript:alert(1))', ''],
    ];
    for (const [css, expected] of cases) expect([css, style(css)]).toEqual([css, expected]);
  });

  it('drops unsafe declarations but keeps the safe ones next to them', () => {
    expect(style('color:red; behavior: url(x.htc); display:none; width:expression(alert(1))')).toBe('color:red');
    expect(style('color:red;;;')).toBe('color:red');
    expect(style('0')).toBe('');
    expect(ksesPost('<p style="">x</p>')).toBe('<p>x</p>');
  });
});

describe('block comments (wp_pre_kses_block_attributes)', () => {
  it('filters attribute strings and keys, and serialises the JSON as WordPress does', () => {
    expect(ksesPost('<!-- wp:paragraph {"a":"\\u003cscript\\u003ex\\u003c/script\\u003e<b>"} --><p>hi</p><!-- /wp:paragraph -->')).toBe(
      '&lt;!-- wp:paragraph {&quot;a&quot;:&quot;\\u003cscript\\u003ex\\u003c/script\\u003e<b>"} --&gt;<p>hi</p><!-- /wp:paragraph -->',
    );
    expect(ksesPost('<!-- wp:paragraph {"a":"\\u003cscript\\u003ex\\u003c/script\\u003e\\u003cb\\u003eb"} --><p>hi</p><!-- /wp:paragraph -->')).toBe(
      '<!-- wp:paragraph {"a":"x\\u003cb\\u003eb"} --><p>hi</p><!-- /wp:paragraph -->',
    );
    expect(ksesTitle('<!-- wp:x {"k":"\\u003cem\\u003ei\\u003c/em\\u003e\\u003cp\\u003ep"} /-->')).toBe('<!-- wp:x {"k":"\\u003cem\\u003ei\\u003c/em\\u003ep"} /-->');
  });

  it('normalises delimiters and JSON', () => {
    expect(ksesPost('<!--   wp:core/image   {"id":5,"url":"https:\\/\\/x\\/y.jpg","n":1.0,"m":1e25,"e":{},"l":{"0":"a","1":"b"},"u":"\\u00e9&"}   /-->')).toBe(
      '<!-- wp:image {"id":5,"url":"https://x/y.jpg","n":1,"m":1.0e+25,"e":[],"l":["a","b"],"u":"é\\u0026amp;"} /-->',
    );
    expect(ksesPost('<!-- wp:my/block {"a":"--"} --><p>x</p><!-- /wp:my/block -->')).toBe('<!-- wp:my/block {"a":"\\u002d\\u002d"} --><p>x</p><!-- /wp:my/block -->');
    expect(ksesPost('<!-- wp:p {"broken": } --><p>x</p><!-- /wp:p -->')).toBe('<!-- wp:p --><p>x</p><!-- /wp:p -->');
  });

  it('closes unclosed blocks and leaves stray closers', () => {
    expect(ksesPost('<!-- wp:paragraph --><p>x</p>')).toBe('<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->');
    expect(ksesPost('a<!-- /wp:paragraph -->b')).toBe('a<!-- /wp:paragraph -->b');
    expect(ksesPost('<!-- wp:group --><div><!-- wp:p --><p>x</p><!-- /wp:p --></div><!-- /wp:group -->')).toBe(
      '<!-- wp:group --><div><!-- wp:p --><p>x</p><!-- /wp:p --></div><!-- /wp:group -->',
    );
  });

  it('limits a template part tagName to allowed elements', () => {
    expect(ksesPost('<!-- wp:template-part {"slug":"h","tagName":"header"} /-->')).toBe('<!-- wp:template-part {"slug":"h","tagName":"header"} /-->');
    expect(ksesPost('<!-- wp:template-part {"slug":"h","tagName":"script"} /-->')).toBe('<!-- wp:template-part {"slug":"h","tagName":""} /-->');
  });

  it('turns `<!-- x --->` into `<!-- x -->` first', () => {
    expect(ksesPost('<!-- wp:p ---><p>x</p>')).toBe('<!-- wp:p --><p>x</p><!-- /wp:p -->');
  });
});

describe('robustness', () => {
  const MB = 1_000_000;
  const repeat = (piece: string): string => piece.repeat(Math.ceil(MB / piece.length)).slice(0, MB);
  const huge: Record<string, string> = {
    '<a repeated': repeat('<a'),
    '<<<<': repeat('<'),
    '<!-- repeated': repeat('<!--'),
    '<!-- > and newlines': repeat('<!-- >\n'),
    'many tags': repeat('<b><i>'),
    'long attribute list': `<a ${repeat('title="x" href=y data-z ')}>`,
    'unterminated quotes': `<a title=${repeat('"\'')}>`,
    entities: repeat('&#'),
    backslashes: repeat('\\'),
    'colons in a URL': `<a href="${repeat('&#58;a')}">`,
    'nested css functions': `<p style="width:${repeat('calc(')}">`,
    'url( in css': `<p style="background:${repeat('url(')})">`,
    'many url() in css': `<p style="background:${repeat('url(a) ')}">`,
    'many declarations': `<p style="${repeat('color:red;')}">`,
    'unclosed nested blocks': repeat('<!-- wp:a -->'),
    'nested closed blocks': `${'<!-- wp:a -->'.repeat(36_000)}x${'<!-- /wp:a -->'.repeat(36_000)}`,
    'block attributes': repeat('<!-- wp:a {"a":"b"} --><p>x</p><!-- /wp:a -->'),
    'deep json': `<!-- wp:a {"a":${'['.repeat(600)}${']'.repeat(600)}} -->`,
    dashes: `<!--${repeat('-')}-->`,
    'lone surrogates': repeat('\uD800<a \uDC00'),
  };
  // Each input would take minutes with a backtracking pattern; the test's own time limit is the
  // guard (speed itself is not asserted here).
  for (const [name, input] of Object.entries(huge)) {
    it(`filters 1 MB of ${name} to text with no element that runs`, () => {
      for (const out of [ksesPost(input), ksesTitle(input)]) {
        expect(typeof out).toBe('string');
        expect(out).not.toMatch(/<script|<iframe|\son[a-z]+\s*=/i);
      }
    }, 30_000);
  }

  it('never throws on odd input types', () => {
    expect(ksesPost(undefined as unknown as string)).toBe('');
    expect(ksesTitle(42 as unknown as string)).toBe('42');
  });
});

describe('properties', () => {
  const pieces = fc.oneof(
    fc.constantFrom(
      '<',
      '>',
      '</',
      '/>',
      '&',
      '&#',
      ';',
      '"',
      "'",
      '=',
      ' ',
      '\n',
      '\\',
      '\\"',
      '<a ',
      '<p ',
      '<img ',
      '<b>',
      '</b>',
      '<script>',
      '<ScRiPt ',
      '<style>',
      '<iframe ',
      'href=',
      'src=',
      'style=',
      'onclick=',
      ' onerror=',
      'javascript:',
      'jav&#x61;script:',
      '&#106;',
      '&#58;',
      '&colon;',
      'data:',
      'vbscript:',
      'feed:',
      'url(',
      'expression(',
      ')',
      'calc(',
      '<!--',
      '-->',
      '--->',
      '<!-- wp:',
      '<!-- /wp:',
      ' {"a":"',
      '"} -->',
      ' /-->',
      '\\u003c',
      '</ ',
      '<!x',
      '&amp;',
      '&lt;',
      '&#x0;',
      '\u0000',
      '\u0007',
      'x',
      'é',
      '🎉',
    ),
    fc.string({ unit: 'binary', maxLength: 8 }),
  );
  const htmlish = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(''));
  const inputs = fc.oneof(htmlish, fc.string({ unit: 'binary' }));

  /** Tags of the output (`<name …>`), with their attributes. */
  const outputTags = (html: string): { name: string; attrs: [string, string][] }[] =>
    [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)].map((match) => ({
      name: match[1]!,
      attrs: [...match[2]!.matchAll(/\s([^\s="']+)(?:=("[^"]*"|'[^']*'))?/g)].map((attr) => [attr[1]!.toLowerCase(), (attr[2] ?? '').slice(1, -1)] as [string, string]),
    }));

  /** What a browser would take for the URL's scheme. */
  const scheme = (value: string): string => {
    const decoded = value.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);?/g, (whole, ref: string) => {
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n' } as Record<string, string>)[ref.toLowerCase()] ?? whole;
    });
    const cleaned = decoded.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+/, '');
    const colon = cleaned.indexOf(':');
    return colon === -1 ? '' : cleaned.slice(0, colon).toLowerCase();
  };

  const URI = new Set(['href', 'src', 'cite', 'longdesc', 'poster', 'data', 'usemap', 'action', 'background']);

  // "No javascript: inside an attribute" is checked where it matters: WordPress keeps
  // `title="javascript:…"` (not a URL) and `href="http:javascript:…"` (an http URL), so the
  // property is that no URL attribute has a script scheme as a browser would read it, and no
  // style url() does.
  for (const [name, kses] of [
    ['ksesPost', ksesPost],
    ['ksesTitle', ksesTitle],
  ] as const) {
    it(`${name}: never throws and never lets script, on* attributes or script URLs through`, () => {
      fc.assert(
        fc.property(inputs, (input) => {
          const out = kses(input);
          expect(out).not.toMatch(/<script/i);
          for (const tag of outputTags(out)) {
            for (const [attr, value] of tag.attrs) {
              expect(attr).not.toMatch(/^on/);
              if (URI.has(attr)) expect(['javascript', 'vbscript', 'data']).not.toContain(scheme(value));
              if (attr === 'style') expect(value).not.toMatch(/url\(\s*['"]?\s*(javascript|vbscript|data):/i);
            }
          }
        }),
        { numRuns: 1500 },
      );
    });

    it(`${name}: filtering twice changes nothing`, () => {
      fc.assert(
        fc.property(inputs, (input) => {
          const once = kses(input);
          // WordPress itself is not idempotent in two cases, which are left out:
          // - it rewrites `\"` to `"` inside every tag on every pass (wp_kses_stripslashes), so
          //   output that still holds `\"` inside a tag changes again;
          // - an unterminated `<!--` swallows the rest of the text and is closed with `-->`; if
          //   that text held a tag, the next pass sees a `<` before any `>` after `<!--` and
          //   escapes the opener (`<!-- x><b>` -> `<!-- x&gt;<b>-->` -> `&lt;!-- x&gt;<b>--&gt;`);
          // - its `<!--(.*?)--->` repair (filter_block_content) can span two comments that the
          //   first pass produced (`<!-- /wp:---></ --->` -> `<!-- /wp:--></ --->` -> `<!-- /wp:--></ -->`).
          fc.pre(!/<[^>]*\\"/.test(once) && !/<!--[^>]*</.test(once) && !(once.includes('<!--') && once.includes('--->')));
          expect(kses(once)).toBe(once);
        }),
        { numRuns: 1500 },
      );
    });
  }
});
