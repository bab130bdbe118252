"use strict";
// The table's live stream for both seat pages (`seat.js`, `board.js`): when
// it breaks (the table stopped, the network gone, the stream refused) it is
// opened again after 1 s, then 2, 4... 30 s at most; the page's log says
// once that the table cannot be reached, and once that it is back (then
// the state is fetched afresh: what was missed meanwhile).
function liveStream(handlers, say, words, refresh) {
  const first = 1000, most = 30000;
  let wait = first;
  let lost = false;
  function open() {
    const source = new EventSource("/events");
    for (const [name, f] of Object.entries(handlers)) source.addEventListener(name, f);
    source.onopen = () => {
      wait = first;
      if (lost) {
        lost = false;
        say(words().table_back || "The table is back.");
        refresh();
      }
    };
    source.onerror = () => {
      // The browser's own retry is not used: it gives up on a refusal.
      source.close();
      if (!lost) {
        lost = true;
        say(words().table_lost || "The table cannot be reached: trying again.");
      }
      setTimeout(open, wait);
      wait = Math.min(wait * 2, most);
    };
  }
  open();
}
