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
// - the lines that come together (within 100 ms) are one paragraph: with
//   Firefox, Orca skips an insertion when a newer one in the same region is
//   already waiting ("more recent system event in the same object"), so
//   two lines appended at once lost the first;
// `tandemAnnouncer(region, keep, then)`: `say(text)` appends `text` to
// `region` as a paragraph (with the lines said in the next 100 ms), keeping
// its last `keep` paragraphs (0: all; the oldest dropped without being
// read); `then(paragraph)`, if given, runs after each.
const tandemLastSaid = { text: null, odd: false };
function tandemAnnouncer(region, keep, then) {
  let burst = [];
  function append() {
    const words = burst.join(" ");
    burst = [];
    const same = words === tandemLastSaid.text;
    tandemLastSaid.odd = same ? !tandemLastSaid.odd : false;
    tandemLastSaid.text = words;
    const line = document.createElement("p");
    line.textContent = tandemLastSaid.odd ? `${words}\u00a0` : words;
    if (keep > 0) {
      while (region.children.length >= keep) region.removeChild(region.firstElementChild);
    }
    region.appendChild(line);
    if (then) then(line);
  }
  return function say(text) {
    const words = String(text).trim();
    if (!words) return false;
    if (!burst.length) setTimeout(append, 100);
    burst.push(words);
    return true;
  };
}
