// Runs before the page is drawn: a logged-in page remembers its account's theme on this
// phone; a logged-out page (the login) shows that last theme, else the phone's own dark
// preference (app.css), so that the login at night is as dark as the page behind it.
"use strict";
(function () {
  const html = document.documentElement;
  try {
    if (html.dataset.theme === "auto") {
      const last = localStorage.getItem("marktime-theme");
      if (last) html.dataset.theme = last;
    } else {
      localStorage.setItem("marktime-theme", html.dataset.theme);
    }
  } catch (e) { /* storage off: the phone's preference stands */ }
})();
