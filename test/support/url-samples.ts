// Website values as a live TEC 6.17.2 stores them (an event's `_EventURL`, read back with
// `context=edit`) and as this API saves them: test/unit/url-fields.test.ts checks this API's side,
// test/tec/url-fields.test.ts the live site's.

/**
 * What TEC 6.17.2 answers to a website (the same for events, venues and organizers, but where
 * noted) and what this API saves: the input, TEC's stored value (undefined: 400), this API's.
 */
export const LIVE: [string, string | undefined, string | undefined][] = [
  // Line breaks, tabs and other controls: TEC refuses them (400), as this API does.
  ['https://example.com/a\r\nb', undefined, undefined],
  ['https://example.com/a\nb', undefined, undefined],
  ['https://example.com/a\rb', undefined, undefined],
  ['https://example.com/a\tb', undefined, undefined],
  ['https://example.com/\vvt', undefined, undefined],
  ['https://example.com/\fff', undefined, undefined],
  ['https://example.com/a\u2028b', undefined, undefined],
  ['https://example.com/a\u2029b', undefined, undefined],
  ['https://example.com/a\u0085b', undefined, undefined],
  ['https://example.com/a\u0000b', undefined, undefined],
  ['https://example.com/x\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:x', undefined, undefined],
  ['https://example.com/x\r\n ATTACH:https://evil.example/', undefined, undefined],
  ['javascript:alert(1)', undefined, undefined],
  ['data:text/html,hi', undefined, undefined],
  ['example.com/no-scheme', undefined, undefined],
  ['http://', undefined, undefined],
  ['https:///x', undefined, undefined],
  // Tags go with their names (TEC's strip_tags; a venue's or organizer's website drops a script's
  // text too); esc_url_raw() then drops the `"` that TEC keeps.
  [`https://example.com/a"b<c>d'e`, `https://example.com/a"bd'e`, "https://example.com/abd'e"],
  ['https://example.com/<script>x</script>y', 'https://example.com/xy', 'https://example.com/xy'],
  // `%0d` and `%0a` go (TEC's venues and organizers drop every `%xx`, a defect not copied).
  ['https://example.com/a%0d%0ab', 'https://example.com/ab', 'https://example.com/ab'],
  ['https://example.com/a%0D%0Ab', 'https://example.com/ab', 'https://example.com/ab'],
  // An event's website is entity-decoded (a venue's keeps `&amp;`).
  ['https://example.com/?a=1&amp;b=2', 'https://example.com/?a=1&b=2', 'https://example.com/?a=1&b=2'],
  ['https://example.com/?a=1&b=2', 'https://example.com/?a=1&b=2', 'https://example.com/?a=1&b=2'],
  ['https://example.com/a;b,c', 'https://example.com/a;b,c', 'https://example.com/a;b,c'],
  ['https://example.com/%%', 'https://example.com/%%', 'https://example.com/%%'],
  // esc_url_raw() where TEC stores the characters as they came.
  ['https://example.com/{x}|^`\\', 'https://example.com/{x}|^`', 'https://example.com/x|'],
  ['https://example.com/a[b]', 'https://example.com/a[b]', 'https://example.com/a%5Bb%5D'],
  ['HTTPS://EXAMPLE.COM/A', 'HTTPS://EXAMPLE.COM/A', 'https://EXAMPLE.COM/A'],
  // Liberal where TEC refuses for no harm: spaces at the ends trimmed, inside encoded (esc_url_raw),
  // letters beyond ASCII kept (esc_url_raw).
  ['  https://example.com/lead', undefined, 'https://example.com/lead'],
  ['https://example.com/trail  ', undefined, 'https://example.com/trail'],
  ['https://example.com/a b', undefined, 'https://example.com/a%20b'],
  ['https://example.com/ä', undefined, 'https://example.com/ä'],
  // Only web URLs, as before (TEC takes any scheme PHP's URL filter takes).
  ['ftp://example.com/x', 'ftp://example.com/x', undefined],
  ['mailto:a@example.com', 'mailto:a@example.com', undefined],
  ['', '', ''],
];
