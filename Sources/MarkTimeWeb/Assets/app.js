// marktime's phone page: one live connection per page (snapshot, clock sync, MARK,
// changes to refresh, the anchor alarm) and the ticking clock.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const phoneNow = () => performance.timeOrigin + performance.now();
  const pad = (n, w) => String(n).padStart(w || 2, "0");
  // The sight format: 23d 13h 01m 46.654s
  const sightFormat = (ms) => {
    const d = new Date(Math.floor(ms));
    return pad(d.getUTCDate()) + "d " + pad(d.getUTCHours()) + "h " + pad(d.getUTCMinutes()) + "m " +
      pad(d.getUTCSeconds()) + "." + pad(d.getUTCMilliseconds(), 3) + "s";
  };
  const main = document.querySelector("main");
  // Installable, and the last pages shown offline (sw.js).
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch((e) => console.warn("marktime: no offline pages: " + e.message));
  // What this phone kept of the account's pages goes when it logs out or its session ends.
  const forget = () => { if (window.caches) caches.keys().then((keys) => keys.forEach((k) => caches.delete(k))); };
  // Each form that ends the session: log out, log out everywhere, a new password.
  for (const form of document.querySelectorAll("form.logout, form.ends-session")) form.addEventListener("submit", forget);
  if (!document.querySelector("nav")) { forget(); return; } // logged out: nothing kept, no live connection
  const utc = $("utc"), mark = $("mark"), state = $("mark-state");
  let offset = null; // the Pi's UTC minus the phone's clock, ms
  let socket = null, revision = main.dataset.revision || null; // the store's revision the page was made from
  // Sends a message on the live connection for another part of the page (the plan's Say); false while it is down.
  window.marktimeSend = (m) => { if (!socket || socket.readyState !== WebSocket.OPEN) return false; socket.send(JSON.stringify(m)); return true; };
  const say = (text, bad) => { if (state) { state.textContent = text; state.className = bad ? "error" : ""; } };

  // Without its connection the clock stops, greys, and says how long since the Pi's last time.
  let lost = null; // when the connection was lost (phone ms)
  const stale = $("stale");
  if (utc) {
    const tick = () => {
      if (offset !== null) utc.textContent = sightFormat(phoneNow() + offset);
      if (lost !== null && stale) {
        const s = Math.floor((phoneNow() - lost) / 1000);
        const text = "No connection to the Pi for " + (s < 120 ? s + " s" : Math.floor(s / 60) + " min") + ": the time above is its last.";
        if (stale.textContent !== text) stale.textContent = text;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }
  const connected = (on) => {
    if (!utc) return;
    if (on) { lost = null; if (stale) stale.textContent = ""; } else if (lost === null) lost = phoneNow();
    utc.classList.toggle("stale", !on);
  };

  const item = (s) => {
    const li = document.createElement("li");
    li.dataset.id = s.id;
    const a = document.createElement("a");
    a.href = "/sights/" + s.id;
    const t = document.createElement("span"); t.className = "num"; t.textContent = s.time;
    const src = document.createElement("span"); src.textContent = s.source + " " + s.uncertainty;
    const by = document.createElement("span"); by.className = "muted"; by.textContent = s.trigger;
    a.append(t, " ", src, " ", by);
    li.append(a);
    return li;
  };

  // Sections marked data-live are fetched again when the store changes; forms are left alone.
  // One fetch at a time, and another after it if the store changed meanwhile, so the page
  // ends with what was read after the last change; a fetch that fails is tried again, 1 s
  // later, then 2, 4… up to 30 s apart.
  let fetching = false, again = false, retry = 1000;
  const refresh = async () => {
    if (!document.querySelector("[data-live]")) return;
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      do {
        again = false;
        const r = await fetch(main.dataset.refresh || location.pathname + location.search, { credentials: "same-origin" });
        if (!r.ok) throw new Error("the page answered " + r.status);
        const doc = new DOMParser().parseFromString(await r.text(), "text/html");
        document.querySelectorAll("[data-live]").forEach((el) => {
          const fresh = doc.querySelector('[data-live="' + el.dataset.live + '"]');
          if (fresh && fresh.outerHTML !== el.outerHTML) el.replaceWith(fresh);
        });
      } while (again);
      retry = 1000;
    } catch (e) {
      console.warn("marktime: the page's lists could not be fetched again (" + e.message + "); retrying in " + retry / 1000 + " s");
      setTimeout(refresh, retry);
      retry = Math.min(retry * 2, 30000);
    } finally {
      fetching = false;
    }
  };

  // The anchor alarm: the page flashes, a two-tone siren through Web Audio, and vibration.
  let audio = null, siren = null;
  const unlockAudio = () => {
    if (!audio && window.AudioContext) audio = new AudioContext();
    if (audio && audio.state === "suspended") audio.resume();
  };
  document.addEventListener("pointerdown", unlockAudio, { capture: true });
  // Phones allow vibration only after the page was touched.
  const vibrate = (ms) => { if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(ms); };
  const alarm = (on) => {
    document.body.classList.toggle("alarm", on);
    if (on && !siren) {
      let high = false;
      const beep = () => {
        high = !high;
        vibrate(400);
        if (!audio || audio.state !== "running") return;
        const osc = audio.createOscillator(), gain = audio.createGain();
        osc.type = "square";
        osc.frequency.value = high ? 1046 : 784;
        gain.gain.value = 0.4;
        osc.connect(gain).connect(audio.destination);
        osc.start();
        osc.stop(audio.currentTime + 0.4);
      };
      beep();
      siren = setInterval(beep, 500);
    } else if (!on && siren) {
      clearInterval(siren);
      siren = null;
      vibrate(0);
    }
  };

  // The quick entry after a MARK: the body preselected from the plan, Hs prefilled with the
  // predicted reading (typed as the Pi's keypad takes it: 3412.3 is 34° 12'.3), one tap to keep.
  const quick = (() => {
    const form = $("quick");
    if (!form) return { open() {}, close() {}, refused() {} };
    const output = $("quick-hs"), hint = $("quick-hint"), body = $("quick-body");
    let sight = null, typed = "", predicted = false;
    // 3412.3 → 34° 12'.3; what is still being typed is shown as it stands.
    const shown = (t) => {
      if (t === "") return "Hs —";
      const [whole, tenths] = t.split(".");
      if (whole.length < 3) return "Hs " + t;
      return "Hs " + whole.slice(0, -2) + "° " + whole.slice(-2) + "'" + (tenths === undefined ? "" : "." + tenths);
    };
    const draw = () => {
      output.textContent = shown(typed);
      output.classList.toggle("predicted", predicted);
    };
    form.querySelectorAll("[data-key]").forEach((key) => key.addEventListener("click", () => {
      const k = key.dataset.key;
      // The first key replaces the prediction, as a calculator's does.
      if (predicted) { typed = ""; predicted = false; }
      if (k === "back") typed = typed.slice(0, -1);
      else if (k === "." ? !typed.includes(".") : typed.length < 8) typed += k;
      hint.className = "muted";
      hint.textContent = "Degrees, then two digits of minutes: 3412.3 is 34° 12'.3.";
      draw();
    }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!sight || !socket || socket.readyState !== WebSocket.OPEN) return;
      socket.send(JSON.stringify({ type: "reading", sight: sight, hs: typed, body: body.value }));
      hint.className = "muted";
      hint.textContent = "Keeping…";
    });
    $("quick-later").addEventListener("click", () => { form.hidden = true; });
    return {
      open(s, q) {
        sight = s.id;
        $("quick-sight").textContent = s.id;
        const names = q && q.bodies.length ? q.bodies : [];
        body.replaceChildren(...[""].concat(names).map((n) => {
          const o = document.createElement("option");
          o.value = n; o.textContent = n || "—"; o.selected = q ? n === q.body : n === "";
          return o;
        }));
        typed = q ? q.hs : "";
        predicted = typed !== "";
        hint.className = "muted";
        hint.textContent = q ? (predicted ? "Predicted for " + q.body + "; type the drum's reading, or keep it." : "Type the drum's reading: degrees, then minutes.")
          : "No position for a plan: type the reading, choose the body on the sight's page.";
        draw();
        form.hidden = false;
      },
      close() { form.hidden = true; sight = null; },
      refused(message) { hint.className = "error"; hint.textContent = message; },
    };
  })();

  const handlers = {
    ping: (m) => socket.send(JSON.stringify({ type: "pong", n: m.n, phone_ms: phoneNow() })),
    sync: (m) => {
      offset = m.offset_ms;
      connected(true);
      if (!utc) return;
      $("source").textContent = m.source;
      $("uncertainty").textContent = m.uncertainty;
      $("sync").textContent = "· phone ±" + (m.rtt_ms / 2).toFixed(1) + " ms";
      if (mark && mark.disabled) { mark.disabled = false; say("Ready: MARK records the instant you touch it."); }
    },
    now: (m) => {
      alarm(m.anchor && m.anchor.state === "alarm");
      if (revision !== null && m.revision !== revision) refresh();
      revision = m.revision;
      if (!utc) return;
      $("fix").textContent = m.fix;
      // A page kept from an older version may lack these lines.
      for (const [id, text] of [["chronometer", m.chronometer], ["gps-warning", m.gpsWarning]]) { if ($(id)) $(id).textContent = text || ""; }
      $("daemon").textContent = "daemon " + m.daemon;
      $("anchor-state").textContent = m.anchor.state === "off" ? "" : "anchor " + m.anchor.summary;
      if (offset === null) { $("source").textContent = m.source; $("uncertainty").textContent = m.uncertainty; }
      $("sights").replaceChildren(...m.sights.map(item));
    },
    marked: (m) => say("Stored sight " + m.sight.id + " at " + m.sight.time + " (" + m.sight.source + " " + m.sight.uncertainty + ")."),
    quick: (m) => quick.open(m.sight, m.quick),
    kept: (m) => {
      quick.close();
      say("Kept sight " + m.sight.id + ": " + (m.sight.body || "no body") + ", Hs " + (m.sight.hs || "none") + ".");
    },
    refused: (m) => { if (m.reading) quick.refused(m.message); else say(m.message, true); },
  };

  const connect = () => {
    socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/live");
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (handlers[m.type]) handlers[m.type](m);
    };
    socket.onclose = (e) => {
      // 1008: the session ended (a password change, a removal, a log-out everywhere).
      if (e.code === 1008) { forget(); location.href = "/login?next=" + encodeURIComponent(location.pathname); return; }
      offset = null;
      connected(false);
      if (mark) { mark.disabled = true; say("Connection lost; reconnecting…", true); }
      setTimeout(connect, 1000);
    };
  };
  connect();

  if (!mark) return;
  // MARK fires on touch-down, with the event's own time.
  mark.addEventListener("pointerdown", (e) => {
    if (mark.disabled || !socket || socket.readyState !== WebSocket.OPEN) return;
    e.preventDefault();
    socket.send(JSON.stringify({ type: "mark", phone_ms: performance.timeOrigin + e.timeStamp }));
    mark.classList.add("pressed");
    vibrate(40);
    say("Marked; storing…");
  });
  mark.addEventListener("pointerup", () => mark.classList.remove("pressed"));
  mark.addEventListener("pointercancel", () => mark.classList.remove("pressed"));
})();

// The People page's Align slider: every clock and sky follows the chosen minute of your day,
// from the day the page was given (each person's shifts, and skies every few minutes).
(function () {
  const data = document.getElementById("align-data"), slider = document.getElementById("minute");
  if (!data || !slider) return;
  const day = JSON.parse(data.textContent);
  const panel = document.getElementById("align"), text = document.getElementById("minute-text");
  const painted = document.documentElement.dataset.theme !== "night"; // red-on-black keeps night vision: no sky colours
  const hhmm = (m) => String(Math.floor(m / 60)).padStart(2, "0") + ":" + String(m % 60).padStart(2, "0");
  const segment = (row, m) => row.segments.reduce((found, s) => (s[0] <= m ? s : found), row.segments[0]);
  const skyAt = (row, m) => row.sky[Math.min(Math.floor(m / day.step), row.sky.length - 1)];
  const dark = (hex) => {
    const v = parseInt(hex.slice(1), 16);
    return 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255) < 140;
  };
  const paint = (el, sky) => {
    el.classList.remove("dark", "light");
    if (!painted || !sky) { el.style.backgroundColor = ""; return; }
    el.style.backgroundColor = sky[1];
    el.classList.add(dark(sky[1]) ? "dark" : "light");
  };
  if (painted) {
    // The track is your day's sky, midnight to midnight.
    const stops = day.you.sky.map((s, i) => (s ? s[1] : "#888") + " " + ((i * 100) / day.you.sky.length).toFixed(1) + "%");
    slider.style.background = "linear-gradient(to right, " + stops.join(", ") + ")";
    panel.classList.add("painted");
  }
  const rows = new Map(day.rows.map((r) => [r.name, r]));
  const show = () => {
    const m = Number(slider.value);
    text.textContent = hhmm(m);
    paint(panel, skyAt(day.you, m));
    document.querySelectorAll("#clocks li[data-row]").forEach((li) => {
      const row = rows.get(li.dataset.row);
      if (!row) return;
      const s = segment(row, m), t = m + s[1];
      const d = Math.floor(t / 1440), sky = skyAt(row, m);
      li.querySelector(".time").textContent = hhmm(t - d * 1440);
      li.querySelector(".day").textContent = d === 0 ? "" : (d > 0 ? "+" : "-") + Math.abs(d) + "d";
      li.querySelector(".zone").textContent = s[2] + " " + s[3];
      li.querySelector(".sky").textContent = sky ? sky[0] : "-";
      paint(li, sky);
    });
  };
  slider.addEventListener("input", show);
  show();
})();

// The time signal on the Now page: the form's answer comes once the button was pressed on
// the tick (or the daemon's wait ended); meanwhile the button says what to do.
(function () {
  const form = document.querySelector("#time-signal form");
  if (!form) return;
  form.addEventListener("submit", () => {
    const button = document.getElementById("signal-wait");
    button.textContent = "Now press the sight button on the tick of " + document.getElementById("signal-tick").value.trim() + " UTC…";
    setTimeout(() => { button.disabled = true; }, 0); // after the form is sent: once only
  });
})();

// The day page's photo: sent as the request's body (the file as it is, no re-encoding),
// with the caption in the query and the session's token in a header. Without JavaScript
// the form posts multipart/form-data, with the token in its action's query.
(function () {
  const form = document.getElementById("add-photo");
  if (!form) return;
  const state = document.getElementById("photo-state");
  const csrf = document.querySelector('meta[name="csrf"]');
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = document.getElementById("photo").files[0];
    if (!file) return;
    state.textContent = "Sending " + Math.round(file.size / 1024) + " KB…";
    // encodeURIComponent, not URLSearchParams: the Pi reads "+" as itself, not a space.
    const query = "caption=" + encodeURIComponent(document.getElementById("caption").value) + "&name=" + encodeURIComponent(file.name);
    const r = await fetch(form.action + (form.action.includes("?") ? "&" : "?") + query, {
      method: "POST", body: file, credentials: "same-origin",
      headers: { "Content-Type": file.type || "application/octet-stream", "X-CSRF-Token": csrf ? csrf.content : "" },
    });
    // The page's answer says what happened; the entries follow through the live connection.
    const answer = new DOMParser().parseFromString(await r.text(), "text/html").querySelector(".error, .notice");
    state.textContent = answer ? answer.textContent : "The Pi answered " + r.status + ".";
    state.className = r.ok ? "notice" : "error";
    if (r.ok) form.reset();
  });
})();

// The drawings' labels (the plotting sheet, the run chart): app.css sizes them to the page's
// text whatever the drawing's scale; here each is placed clear of the others and of the
// markers, inside the drawing, at the first of its spots (written by the Pi, MarkTimePlot)
// with room. Rank by rank (0 first), and in a rank the label with the fewest spots first
// (or the order written, when that places more): every label of the rank in its shortest
// form, so that each gets a place if one is left, then each in the longest form that has
// room; a label with no room at all is hidden. Again whenever a drawing's size changes (a turned
// phone, another text size) or a refresh brings a new one.
(function () {
  const markers = ".fix, .dr, .gps, .ap, .point, .average";
  const meet = (a, b, pad) => a.x < b.x + b.width + pad && b.x < a.x + a.width + pad && a.y < b.y + b.height + pad && b.y < a.y + a.height + pad;
  const place = (svg) => {
    const view = svg.viewBox.baseVal;
    const labels = [...svg.querySelectorAll("text[data-spots]")];
    if (!view || !labels.length) return;
    const em = parseFloat(getComputedStyle(labels[0]).fontSize); // in the drawing's units
    const gap = 0.25 * em + 8, pad = 0.15 * em; // clear of a marker (7 units at most), and of each other
    const fixed = [...svg.querySelectorAll(markers)].map((m) => m.getBBox());
    const rose = svg.querySelector(".rose circle"), scale = svg.querySelector(".scale line");
    const boxes = new Map(); // label → its box
    // The label in `form` at its first spot with room, moved there; its box, or null.
    const fit = (t, form, avoid) => {
      t.textContent = form;
      const b = t.getBBox(), dx = b.x - t.x.baseVal.getItem(0).value, dy = b.y - t.y.baseVal.getItem(0).value, w = b.width, h = b.height;
      for (const [x, y, side] of t.spots) {
        const [left, top] = {
          ne: [x + gap, y - gap - h], se: [x + gap, y + gap], sw: [x - gap - w, y + gap], nw: [x - gap - w, y - gap - h],
          n: [x - w / 2, y - gap - h], s: [x - w / 2, y + gap], e: [x + gap, y - h / 2], w: [x - gap - w, y - h / 2], c: [x - w / 2, y - h / 2],
        }[side];
        const at = { x: left, y: top, width: w, height: h };
        if (left < 0 || top < 0 || left + w > view.width || top + h > view.height) continue;
        if ([...boxes].some(([other, box]) => other !== t && meet(at, box, pad)) || avoid.some((m) => meet(at, m, 2))) continue;
        t.setAttribute("x", (left - dx).toFixed(2));
        t.setAttribute("y", (top - dy).toFixed(2));
        return at;
      }
      return null;
    };
    const ranks = new Map();
    for (const t of labels) {
      if (t.dataset.full === undefined) t.dataset.full = t.textContent;
      t.classList.remove("unplaced");
      t.forms = [t.dataset.full].concat(t.dataset.short ? t.dataset.short.split("|") : []);
      t.spots = t.dataset.spots.split(" ").map((s) => s.split(",")).map(([x, y, side]) => [Number(x), Number(y), side]);
      t.avoid = fixed.concat([rose && t.dataset.for !== "rose" ? rose.getBBox() : null, scale && t.dataset.for !== "scale" ? scale.getBBox() : null].filter(Boolean));
      const rank = Number(t.dataset.rank);
      ranks.set(rank, (ranks.get(rank) || []).concat([t]));
    }
    // Each label of `order` at its first spot with room, in its shortest form; how many found one.
    const shortest = (order) => {
      for (const t of order) {
        const box = fit(t, t.forms[t.forms.length - 1], t.avoid);
        if (box) boxes.set(t, box);
        else { t.textContent = t.dataset.full; t.classList.add("unplaced"); }
      }
      return order.filter((t) => boxes.has(t)).length;
    };
    const saved = (group) => group.map((t) => [t, t.getAttribute("x"), t.getAttribute("y"), t.textContent, t.classList.contains("unplaced"), boxes.get(t)]);
    const restore = (state) => state.forEach(([t, x, y, text, unplaced, box]) => {
      t.setAttribute("x", x); t.setAttribute("y", y); t.textContent = text; t.classList.toggle("unplaced", unplaced);
      if (box) boxes.set(t, box); else boxes.delete(t);
    });
    for (const rank of [...ranks.keys()].sort((a, b) => a - b)) {
      // Within a rank, the label with the fewest spots chooses first (the fix's 8 around its
      // point before a line's 40 along it), so that a label with many spots cannot take
      // every spot of one with few; when that leaves one out, the order written is tried
      // too, and the order that places more is kept.
      const group = ranks.get(rank);
      let order = group.slice().sort((a, b) => a.spots.length - b.spots.length);
      const before = saved(group);
      const placed = shortest(order);
      if (placed < group.length) {
        const fewestFirst = saved(group);
        restore(before);
        if (shortest(group) > placed) order = group;
        else restore(fewestFirst);
      }
      for (const t of order.filter((t) => boxes.has(t))) {
        const kept = [t.getAttribute("x"), t.getAttribute("y"), t.textContent];
        let longer = null;
        for (const form of t.forms.slice(0, -1)) if ((longer = fit(t, form, t.avoid))) break;
        if (longer) boxes.set(t, longer);
        else { t.setAttribute("x", kept[0]); t.setAttribute("y", kept[1]); t.textContent = kept[2]; }
      }
    }
    svg.dataset.labels = "placed";
  };
  const sizes = new ResizeObserver((entries) => entries.forEach((e) => place(e.target)));
  const watch = (root) => root.querySelectorAll("svg.drawing").forEach((svg) => sizes.observe(svg));
  watch(document);
  // A section fetched again (data-live) brings its drawing anew.
  new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach((n) => {
    if (n instanceof Element) { if (n.matches("svg.drawing")) sizes.observe(n); else watch(n); }
  }))).observe(document.querySelector("main") || document.body, { childList: true, subtree: true });
})();

// The plan's live preset: the chosen set's Hs and Zn at the Pi's second, fetched every 10 s
// and moved on at each turn of the Pi's second by each body's rate; the body to shoot next marked.
(function () {
  const live = document.getElementById("plan-live");
  if (!live || !live.dataset.src) return;
  const list = document.getElementById("plan-live-list"), clock = document.getElementById("plan-live-utc");
  const windowText = document.getElementById("plan-live-window"), error = document.getElementById("plan-live-error");
  const phoneNow = () => performance.timeOrigin + performance.now();
  let data = null, offset = 0, next = 0, timer = null; // offset: the Pi's time minus the phone's, ms
  // 51.67 → 51° 40'.2, as SextantAngle.format writes it
  const angle = (deg) => {
    const tenths = Math.round(Math.abs(deg) * 600), sign = deg < 0 && tenths !== 0 ? "-" : "";
    return sign + Math.floor(tenths / 600) + "° " + String(Math.floor((tenths % 600) / 10)).padStart(2, "0") + "'." + (tenths % 10);
  };
  // The list is made when the Pi's values or the next body change; each second moves its
  // texts only, so a tap never lands on a row that is being replaced.
  const render = () => {
    list.replaceChildren(...data.bodies.map((b, i) => {
      const li = document.createElement("li");
      li.className = "num" + (i === next ? " next" : "");
      li.dataset.body = b.body;
      const name = document.createElement("span"); name.textContent = (i === next ? "▶ " : "") + b.body;
      const hs = document.createElement("strong"); hs.className = "hs";
      const zn = document.createElement("span"); zn.textContent = "Zn " + b.zn;
      li.append(name, " ", hs, " ", zn);
      li.addEventListener("click", () => { next = i; render(); });
      return li;
    }));
    draw();
  };
  const draw = () => {
    if (!data) return;
    const second = Math.floor((phoneNow() + offset) / 1000) * 1000; // the Pi's whole second now
    const minutes = (second - Date.parse(data.utc)) / 60000;
    clock.textContent = new Date(second).toISOString().slice(11, 19) + " UTC";
    windowText.textContent = data.window ? "Twilight window: " + data.window : "";
    list.querySelectorAll(".hs").forEach((hs, i) => {
      const b = data.bodies[i];
      if (b) hs.textContent = "Hs " + angle(b.hs_deg + b.hs_arcmin_per_min * minutes / 60);
    });
  };
  // Each draw at the next turn of the Pi's second.
  const tick = () => {
    draw();
    timer = setTimeout(tick, 1000 - ((phoneNow() + offset) % 1000) + 5);
  };
  const load = () => {
    const asked = phoneNow();
    fetch(live.dataset.src, { cache: "no-store" }).then((r) => r.json()).then((j) => {
      if (j.error) { error.textContent = j.error; return; }
      error.textContent = "";
      // The Pi's time then, at the middle of the round trip.
      offset = j.now_ms - (asked + phoneNow()) / 2;
      data = j; live.hidden = false;
      render();
      if (timer === null) tick();
    }).catch((e) => { error.textContent = "The Pi did not answer (" + e.message + "): the values shown are the last it gave."; });
  };
  document.getElementById("plan-live-next").addEventListener("click", () => { if (data) { next = (next + 1) % data.bodies.length; render(); } });
  // Say it on the Pi: the next body's preset as the Pi works it out now, read aloud by the daemon.
  const sayButton = document.getElementById("plan-live-say"), said = document.getElementById("plan-live-said");
  if (sayButton) sayButton.addEventListener("click", () => {
    fetch(live.dataset.src, { cache: "no-store" }).then((r) => r.json()).then((j) => {
      const b = j.bodies && j.bodies[next];
      if (j.error || !b) { said.textContent = j.error || "No body to say."; return; }
      said.textContent = window.marktimeSend && window.marktimeSend({ type: "say", text: b.spoken })
        ? "Said on the Pi (with the daemon running and sound.speech on): " + b.spoken
        : "No connection to the Pi: nothing said.";
    }).catch((e) => { said.textContent = "The Pi did not answer (" + e.message + ")."; });
  });
  load();
  setInterval(load, 10000);
})();
