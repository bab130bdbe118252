"use strict";
// How every page tandem serves speaks to a screen reader (docs/devices.md,
// "Heard once, in every screen reader"), one file for the table's pages and
// the hall's (both servers send this same text as /announce.js):
// - the live regions are in the page's HTML, empty, before anything changes
//   (a region made or filled at the same time as its text is not read);
// - each announcement is a new element appended at the end of its region (a
//   log), never a changed text, never put first: the region's old lines
//   stay, each new line is read once (a line put above the others makes
//   Chromium report the region's whole text as new: Orca read it all again);
// - the same words twice in a row are made distinct: the second ends with a
//   no-break space (a plain space is dropped by Chromium), the third not, and
//   so on: a screen reader that drops a repeated insertion (Orca, NVDA with
//   Chromium) reads each;
// - what must interrupt (a refusal of the player's own input, the desk's
//   alerts) goes to an assertive log made the same way, never to a
//   `role="alert"` whose text changes (Firefox does not announce it to Orca);
// - the page never moves the focus to announce anything.
// - each line is a paragraph (`p`) in a `div` region: a block of its own
//   for the browser, so that what it reports as inserted is that line (text
//   straight in the region, or in `li` items of a list given `role="log"`,
//   made Chromium report the whole region again);
// `tandemAnnouncer(region, keep)`: `say(text)` appends `text` to `region`
// as a paragraph, keeping its last `keep` lines (0: all; the oldest dropped
// without being read); `say(text, p)` appends the paragraph `p` (whose words
// are `text`).
const tandemLastSaid = { text: null, odd: false };
function tandemAnnouncer(region, keep) {
  return function say(text, node) {
    const words = String(text).trim();
    if (!words) return null;
    const same = words === tandemLastSaid.text;
    tandemLastSaid.odd = same ? !tandemLastSaid.odd : false;
    tandemLastSaid.text = words;
    const line = node || document.createElement("p");
    if (!node) line.textContent = words;
    if (tandemLastSaid.odd) line.append("\u00a0");
    if (keep > 0) {
      while (region.children.length >= keep) region.removeChild(region.firstElementChild);
    }
    region.appendChild(line);
    return line;
  };
}
