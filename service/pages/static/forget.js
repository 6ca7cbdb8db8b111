// The sign-in page: whatever the recording page kept offline for a session that has ended (its service
// worker's cache, its queue in localStorage, both under the session's tag) is dropped here, for browsers
// that do not honour the sign-out's Clear-Site-Data (a club laptop served over plain http).
"use strict";
(() => {
  const tag = (document.cookie.match(/(?:^|; )tablelog_tag=([^;]*)/) || [])[1] || "";
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith("tablelog.record.") && !key.startsWith(`tablelog.record.${tag}.`)) localStorage.removeItem(key);
  }
  if (window.caches) {
    caches.keys().then((names) => names.filter((n) => n.startsWith("tablelog-record-") && n !== `tablelog-record-${tag}`).forEach((n) => caches.delete(n)));
  }
})();
