// marktime's phone page: the live connection (snapshot, clock sync, MARK) and the ticking clock.
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
  const utc = $("utc");
  if (!utc) return;
  let offset = null; // the Pi's UTC minus the phone's clock, ms
  let socket = null;
  const mark = $("mark"), state = $("mark-state");
  const say = (text, bad) => { state.textContent = text; state.className = bad ? "error" : ""; };

  const tick = () => {
    if (offset !== null) utc.textContent = sightFormat(phoneNow() + offset);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);

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

  const handlers = {
    ping: (m) => socket.send(JSON.stringify({ type: "pong", n: m.n, phone_ms: phoneNow() })),
    sync: (m) => {
      offset = m.offset_ms;
      $("source").textContent = m.source;
      $("uncertainty").textContent = m.uncertainty;
      $("sync").textContent = "· phone ±" + (m.rtt_ms / 2).toFixed(1) + " ms";
      if (mark.disabled) { mark.disabled = false; say("Ready: MARK records the instant you touch it."); }
    },
    now: (m) => {
      $("fix").textContent = m.fix;
      $("daemon").textContent = "daemon " + m.daemon;
      if (offset === null) { $("source").textContent = m.source; $("uncertainty").textContent = m.uncertainty; }
      $("sights").replaceChildren(...m.sights.map(item));
    },
    marked: (m) => say("Stored sight " + m.sight.id + " at " + m.sight.time + " (" + m.sight.source + " " + m.sight.uncertainty + ")."),
    refused: (m) => say(m.message, true),
  };

  const connect = () => {
    socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/live");
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (handlers[m.type]) handlers[m.type](m);
    };
    socket.onclose = () => {
      mark.disabled = true;
      offset = null;
      say("Connection lost; reconnecting…", true);
      setTimeout(connect, 1000);
    };
  };
  connect();

  // MARK fires on touch-down, with the event's own time.
  mark.addEventListener("pointerdown", (e) => {
    if (mark.disabled || !socket || socket.readyState !== WebSocket.OPEN) return;
    e.preventDefault();
    socket.send(JSON.stringify({ type: "mark", phone_ms: performance.timeOrigin + e.timeStamp }));
    mark.classList.add("pressed");
    if (navigator.vibrate) navigator.vibrate(40);
    say("Marked; storing…");
  });
  mark.addEventListener("pointerup", () => mark.classList.remove("pressed"));
  mark.addEventListener("pointercancel", () => mark.classList.remove("pressed"));
})();
