// Website values as a live TEC 6.17.2 stores them (an event's `_EventURL`, read back with
// `context=edit`) and as this API saves them: test/unit/url-fields.test.ts checks this API's side,
// test/tec/url-fields.test.ts the live site's.

/**
 * What TEC 6.17.2 answers to a website (the same for events, venues and organizers, but where
 * noted) and what this API saves: the input, TEC's stored value (undefined: 400), this API's.
 * An image is an http or https URL (TEC fetches it, and refuses one of another scheme).
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
  // The schemes of wp_allowed_protocols(), as TEC stores them (esc_url_raw() lower-cases the scheme,
  // encodes a space, drops `"`).
  ['ftp://example.com/x', 'ftp://example.com/x', 'ftp://example.com/x'],
  ['ftps://example.com/x', 'ftps://example.com/x', 'ftps://example.com/x'],
  ['mailto:a@example.com', 'mailto:a@example.com', 'mailto:a@example.com'],
  ['news:comp.lang', 'news:comp.lang', 'news:comp.lang'],
  ['irc://irc.example.com/chan', 'irc://irc.example.com/chan', 'irc://irc.example.com/chan'],
  ['irc6://x.example/c', 'irc6://x.example/c', 'irc6://x.example/c'],
  ['ircs://x.example/c', 'ircs://x.example/c', 'ircs://x.example/c'],
  ['gopher://x.example/1', 'gopher://x.example/1', 'gopher://x.example/1'],
  ['nntp://x.example/g', 'nntp://x.example/g', 'nntp://x.example/g'],
  ['feed://x.example/f', 'feed://x.example/f', 'feed://x.example/f'],
  ['telnet://x.example', 'telnet://x.example', 'telnet://x.example'],
  ['mms://x.example/s', 'mms://x.example/s', 'mms://x.example/s'],
  ['rtsp://x.example/s', 'rtsp://x.example/s', 'rtsp://x.example/s'],
  ['svn://x.example/r', 'svn://x.example/r', 'svn://x.example/r'],
  ['webcal://x.example/c.ics', 'webcal://x.example/c.ics', 'webcal://x.example/c.ics'],
  ['FTP://EXAMPLE.COM/X', 'FTP://EXAMPLE.COM/X', 'ftp://EXAMPLE.COM/X'],
  ['mailto:a"b<c>@example.com', 'mailto:a"b@example.com', 'mailto:ab@example.com'],
  // esc_url_raw() keeps these, TEC's REST routes refuse them (its URL filter wants a host, or a
  // lower-case `mailto:`): taken here, so that a site that stored them imports.
  ['tel:+37060000000', undefined, 'tel:+37060000000'],
  ['tel:+1 555 0100', undefined, 'tel:+1%20555%200100'],
  ['sms:+123', undefined, 'sms:+123'],
  ['fax:+123', undefined, 'fax:+123'],
  ['xmpp:a@example.com', undefined, 'xmpp:a@example.com'],
  ['urn:isbn:0451450523', undefined, 'urn:isbn:0451450523'],
  ['MAILTO:A@EXAMPLE.COM', undefined, 'mailto:A@EXAMPLE.COM'],
  ['mailto:a@example.com?subject=Hi there', undefined, 'mailto:a@example.com?subject=Hi%20there'],
  ['tel:+1%0d%0a2', undefined, 'tel:+12'],
  ['ftp://example.com/a b', undefined, 'ftp://example.com/a%20b'],
  // Schemes outside wp_allowed_protocols() that TEC stores as given: refused here (esc_url_raw()
  // would empty them, esc_url() shows them as nothing).
  ['file:///etc/passwd', 'file:///etc/passwd', undefined],
  ['ssh://x.example', 'ssh://x.example', undefined],
  ['tel:', undefined, undefined],
  ['', '', ''],
];
