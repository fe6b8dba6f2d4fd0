// Package discover turns any URL a user gives (a feed, a blog's home page,
// an article) into the feeds behind it.
//
// Discover fetches the URL once. When the body is itself a feed, as judged
// by the caller's sniffer (the parser's feed.Detect), that is the answer
// and the fetched body comes back in Result.Direct for reuse: one GET, not
// two. Otherwise the candidates are the feeds the site declares: HTML
// <link rel="alternate"> elements with an RSS, Atom, RDF, JSON Feed or
// iCalendar type, read from the head with relative hrefs resolved against
// <base> and the final URL, and HTTP Link headers with rel="alternate" and
// such a type. Only when the site declares none are a few well-known paths
// (/feed, /rss, /rss.xml, /atom.xml, /feed.xml, /index.xml, /feed.json)
// probed at its root, without following redirects and reading only enough
// to sniff; those candidates are marked as guesses.
//
// Candidates are deduplicated and declared feeds rank before guesses. The
// WebSub hub and self links of the response's Link headers are kept in
// Result for the WebSub subscriber. A page without a feed gives an error
// wrapping ErrNoFeed that lists every URL tried.
package discover
