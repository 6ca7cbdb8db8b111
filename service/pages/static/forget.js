// On the sign-in and recording pages: whatever the recording page kept offline for another session than
// this browser's (its service worker's cache, its queue in localStorage, both under the session's tag) is
// dropped, for browsers that do not honour the sign-out's Clear-Site-Data (a club laptop on plain http)
// and for a session that ended without signing out.
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
