"""The phone page in headless Chromium, driven by Selenium, against `marktime web`.

Each scenario gets its own store and its own `marktime web` on a free port, so the
login lockout of one cannot touch another. Each saves a 390×844 screenshot of its page
in each theme to $MARKTIME_SCREENSHOTS. No scenario sleeps: each waits for a condition.
"""
import json
import os
import pathlib
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
import unittest

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

BIN = os.environ["MARKTIME_BIN"]
SHOTS = os.environ["MARKTIME_SCREENSHOTS"]
THEMES = ["day", "sunlight", "night"]
PASSWORD = "correct horse"
# A wait's limit is multiplied by this, as the Swift tests' are (Tests/rig/RigSupport): a
# passing scenario never pays for it, since a wait ends when its condition holds. In a CI
# run beside the trixie build, the page took over 10 s to show an alarm set in the store.
PATIENCE = float(os.environ.get("MARKTIME_TEST_PATIENCE", "") or 3)


def nmea_log(seconds=60):
    """A receiver's log: an RMC and a GGA sentence a second from 10:00:00 on 14 March 2025,
    at 27° 22'.84 S 153° 22'.84 E."""
    def sentence(body):
        checksum = 0
        for c in body.encode():
            checksum ^= c
        return f"${body}*{checksum:02X}\r\n"
    lines = []
    for i in range(seconds):
        t = f"{10 + i // 3600:02d}{i // 60 % 60:02d}{i % 60:02d}.00"
        lines.append(sentence(f"GPRMC,{t},A,2722.840,S,15322.840,E,000.0,000.0,140325,,,A"))
        lines.append(sentence(f"GPGGA,{t},2722.840,S,15322.840,E,1,08,0.9,12.0,M,39.0,M,,"))
    return "".join(lines)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Pi:
    """A store in its own folder, the CLI on it, and `marktime web` serving it; with `gps`,
    also gpsd (through gpsfake, looping a receiver's log) and `marktime daemon` on it."""

    def __init__(self, config="", gps=False):
        self.folder = tempfile.mkdtemp(prefix="marktime-web-")
        config_path = os.path.join(self.folder, "config.toml")
        with open(config_path, "w") as f:
            f.write(config)
        self.store = os.path.join(self.folder, "marktime.sqlite")
        self.env = dict(os.environ, MARKTIME_STORE=self.store, MARKTIME_CONFIG=config_path,
                        XDG_RUNTIME_DIR=os.path.join(self.folder, "run"))
        os.makedirs(self.env["XDG_RUNTIME_DIR"])
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.helpers = []
        if gps:
            self.start_gps()
        self.log = open(os.path.join(self.folder, "web.log"), "w")
        self.process = subprocess.Popen([BIN, "web", "--listen", f"127.0.0.1:{self.port}"], env=self.env,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"marktime web exited {self.process.returncode}: {open(self.log.name).read()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("marktime web did not listen within 30 s")
                time.sleep(0.05)  # poll interval while waiting for the port, not a wait for a result

    def start_gps(self):
        """gpsfake on a free port and the daemon on it; returns once the daemon's clock is GPS."""
        log = os.path.join(self.folder, "receiver.nmea")
        with open(log, "w") as f:
            f.write(nmea_log())
        gpsd = free_port()
        self.daemon_log = out = open(os.path.join(self.folder, "daemon.log"), "w")
        self.helpers.append(subprocess.Popen(["gpsfake", "-q", "-c", "0.5", "-P", str(gpsd), log], stdout=out, stderr=subprocess.STDOUT))
        self.helpers.append(subprocess.Popen([BIN, "daemon", "--no-web", "--gpsd", f"127.0.0.1:{gpsd}"], env=self.env,
                                             stdout=out, stderr=subprocess.STDOUT))
        deadline = time.monotonic() + 60
        while json.loads(self.cli("status", "--format", "json"))["source"] != "gps":
            if time.monotonic() > deadline:
                raise RuntimeError(f"the daemon had no GPS time within 60 s: {open(out.name).read()[-2000:]}")
            time.sleep(0.1)  # poll interval while waiting for the first fix, not a wait for a result

    def cli(self, *args, stdin=None, sync_delay_ms=0):
        """Runs the CLI; with `sync_delay_ms`, each of its fsync and fdatasync calls returns
        that much later (strace's fault injection), as on a slow SD card."""
        slow = ["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=fsync,fdatasync",
                "-e", f"inject=fsync,fdatasync:delay_exit={sync_delay_ms * 1000}"] if sync_delay_ms else []
        r = subprocess.run([*slow, BIN, *args], env=self.env, input=stdin, capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"marktime {' '.join(args)} exited {r.returncode}: {r.stderr}")
        return r.stdout

    def user(self, name, password=PASSWORD, admin=False):
        self.cli("user", "add", name, "--password-stdin", *(["--admin"] if admin else []), stdin=password + "\n")

    def sights(self):
        return json.loads(self.cli("sights", "--format", "json"))

    def close(self):
        """Stops `marktime web` as systemd would (SIGTERM); it must exit 0 within 30 s."""
        for helper in reversed(self.helpers):
            helper.terminate()
            try:
                helper.wait(timeout=30)
            except subprocess.TimeoutExpired:
                helper.kill()
        if self.helpers:
            self.daemon_log.close()
        self.process.terminate()
        try:
            code = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = "nothing: it did not stop within 30 s of SIGTERM"
        self.log.close()
        with open(self.log.name) as f:
            log = f.read()
        shutil.rmtree(self.folder, ignore_errors=True)
        if code != 0:
            raise AssertionError(f"marktime web exited {code}; its log:\n{log[-3000:]}")


class PhonePage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=cls.options())
        os.makedirs(SHOTS, exist_ok=True)

    @staticmethod
    def options():
        """Headless Chromium with a phone's screen: 390×844 CSS pixels, touch events."""
        options = webdriver.ChromeOptions()
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
            options.add_argument(arg)
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1}})
        options.binary_location = shutil.which("chromium")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        return options

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()

    def setUp(self):
        # A scenario may give the Pi's config.toml, read when `marktime web` starts.
        self.pi = Pi(getattr(self, "config", {}).get(self._testMethodName, ""), gps=self._testMethodName in getattr(self, "gps", ()))
        self.pi.user("skipper", admin=True)
        self.browser.get(self.pi.url + "/login")
        self.browser.delete_all_cookies()  # cookies are per host, whatever the port
        self.expected_statuses = []
        self.expected_errors = []

    def tearDown(self):
        # Every page ran without a script error, a blocked resource (CSP) or a missing
        # file; only the refusals a scenario provokes may show.
        problems = [e["message"] for e in self.browser.get_log("browser") if e["level"] == "SEVERE"
                    and not any(f"status of {code} " in e["message"] for code in self.expected_statuses)
                    and not any(text in e["message"] for text in self.expected_errors)]
        self.browser.get("about:blank")  # closes the live connection before its server goes
        self.browser.get_log("browser")
        self.pi.close()
        self.assertEqual(problems, [])

    # Helpers

    def wait(self, condition, timeout=10, what="the condition"):
        """Waits for `condition`, up to `timeout` × PATIENCE seconds; when it does not come,
        says what the page and the server were doing: the browser's console and the tail of
        `marktime web`'s log."""
        timeout *= PATIENCE
        try:
            return WebDriverWait(self.browser, timeout, poll_frequency=0.02).until(lambda _: condition(), message=f"waited for {what}")
        except TimeoutException as e:
            console = "\n".join(f"  {entry['level']} {entry['message']}" for entry in self.browser.get_log("browser"))
            with open(self.pi.log.name) as f:
                server = f.read()[-4000:]
            raise AssertionError(f"waited {timeout} s for {what}\nthe browser's console:\n{console}\nmarktime web's log:\n{server}") from e

    def find(self, css):
        return self.browser.find_element(By.CSS_SELECTOR, css)

    def found(self, css):
        return self.browser.find_elements(By.CSS_SELECTOR, css)

    def open(self, path):
        self.browser.get(self.pi.url + path)

    def submit(self, button):
        """Clicks a form's button and waits for the page it leads to."""
        # A mark on the old document; a new document never has it. (Chromedriver's staleness
        # check can fail with an inspector error while the old document is being torn down.)
        self.browser.execute_script("window.markedBeforeSubmit = true")
        self.find(button).click()
        WebDriverWait(self.browser, 10 * PATIENCE).until(
            lambda browser: browser.execute_script(
                "return !window.markedBeforeSubmit && document.readyState === 'complete'"),
            message=f"a new page after {button}")

    def log_in(self, name="skipper", password=PASSWORD):
        self.open("/login")
        self.find("#user").send_keys(name)
        self.find("#password").send_keys(password)
        self.submit("#login")

    def live_socket(self):
        """Waits until the page's live connection is open (on a page without MARK)."""
        self.wait(lambda: self.browser.execute_script("return window.marktimeSend !== undefined && window.marktimeSend({type: 'noop'})"),
                  what="the live connection")

    def live(self):
        """Waits until the page's live connection has synchronised the clock."""
        self.wait(lambda: self.find("#mark").is_enabled(), what="MARK to be enabled by the clock sync")

    def set_theme(self, theme):
        self.open("/settings")
        Select(self.find("#theme")).select_by_value(theme)
        self.submit("#save-appearance")
        self.assertEqual(self.find("html").get_attribute("data-theme"), theme)

    def png(self, name, width, height):
        """A minimal PNG (signature and IHDR) of width × height in the Pi's folder; its path."""
        path = os.path.join(self.pi.folder, name)
        be32 = lambda v: v.to_bytes(4, "big")
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + be32(13) + b"IHDR" + be32(width) + be32(height) + bytes([8, 2, 0, 0, 0, 0, 0, 0, 0]))
        return path

    def picture(self, name, width=64, height=48):
        """A real PNG (white, sky blue and yellow stripes) of width × height; its path."""
        import struct
        import zlib
        colours = [(255, 255, 255), (120, 190, 255), (255, 220, 60)]
        rows = b"".join(b"\x00" + bytes(colours[(y // 8) % 3]) * width for y in range(height))
        chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        path = os.path.join(self.pi.folder, name)
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
        return path

    def a_full_boat(self):
        """A store with something on every page: a sight, places with long names, crew on the
        family clock, people, a task, a journal day with a photo. Returns the paths to visit."""
        self.pi.cli("mark", "--quiet")
        self.pi.cli("place", "add", "Mooloolaba Marina Visitors Berth", "--position", "-26.6842 153.1319", "--radius", "250", "--kind", "harbour")
        self.pi.cli("place", "add", "Home", "--position", "-27.3807 153.3807", "--radius", "150", "--kind", "home")
        self.pi.cli("member", "add", "Anastasia-Konstantinopoulou", "--me")
        self.pi.cli("member", "add", "Raj")
        self.pi.cli("people", "add", "Bartholomew-Featherstonehaugh", "new york")
        self.pi.cli("task", "add", "Swing the compass and write up the deviation card", "--due", "2030-01-01T17:00Z")
        self.pi.cli("day", "photo", "add", self.picture("reef.png"), "--caption", "Reef at low water")
        today = json.loads(self.pi.cli("day", "--format", "json"))["date"]
        fix = self.star_sights()
        return ["/", "/sights", "/sights/1", "/places", "/people", "/tasks", "/journal", f"/journal/{today}", "/settings",
                f"/sights/{fix[0]}", "/fix?ids=" + ",".join(fix),
                "/tools?tool=average&ids=" + ",".join(fix[:2]), f"/tools?tool=assumed&ids={fix[0]}",
                "/tools?tool=noon&position=30+31+N+76+47+W&at=2006-10-26T12:00:00Z&ho=47+11.6",
                "/tools?tool=polaris&ho=50+04.3&at=2026-02-01T03:00:00Z&position=49+41+N+6+17+W",
                "/tools?tool=identify&altitude=40&zn=120&at=2026-02-01T18:30:00Z&position=50+10+N+4+20+W",
                "/tools?tool=plan&twilight=evening&at=2026-11-27T12:00:00Z&position=50+10+N+4+20+W&eye=2.5&ie=-1.2"]

    def star_sights(self):
        """Five sights marked now (Sirius twice, Procyon, Betelgeuse, Rigel), each with the Hs
        the almanac gives at the sight's own instant from a position 20° south of Sirius's
        geographical position, where all are up; their DR is 2' north and 3' west of it. Enough
        for a fix, a run to average and a plotting sheet, drawn the same whenever and however
        slowly the test runs. Returns their ids."""
        stars = ["Sirius", "Sirius", "Procyon", "Betelgeuse", "Rigel"]
        ids = [self.pi.cli("mark", "--quiet").strip() for _ in stars]
        utc = {str(s["id"]): s["utc"] for s in self.pi.sights()}
        sirius = json.loads(self.pi.cli("almanac", "Sirius", "--at", utc[ids[0]], "--format", "json"))
        lat, lon = sirius["dec_deg"] - 20, (-sirius["gha_deg"] + 540) % 360 - 180
        true, dr = f"{lat:.4f} {lon:.4f}", f"{lat + 2 / 60:.4f} {lon - 3 / 60:.4f}"
        for sight, star in zip(ids, stars):
            hc = json.loads(self.pi.cli("almanac", star, "--at", utc[sight], "--position", true, "--format", "json"))["hc_deg"]
            self.pi.cli("sight", "edit", sight, "--body", star, "--hs", f"{hc:.4f}", "--eye-height", "2.5", "--dr", dr)
        return ids

    def set_appearance(self, theme, font):
        self.open("/settings")
        Select(self.find("#theme")).select_by_value(theme)
        Select(self.find("#font")).select_by_value(font)
        self.submit("#save-appearance")

    def overflow(self):
        """The elements that reach outside the 390 px viewport, and the page's scroll width."""
        return self.browser.execute_script("""
            // A stacked table's head is there for screen readers only, clipped to a pixel.
            const out = [...document.querySelectorAll("body *")].filter((e) => !e.closest("thead[style], .log thead") || getComputedStyle(e.closest("thead")).position !== "absolute").filter((e) => {
              const r = e.getBoundingClientRect();
              // Outside the viewport, or text running out of its own box (nowrap, a long word).
              return (r.width > 0 || r.height > 0) && (r.right > innerWidth + 0.5 || r.left < -0.5
                || (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === "visible" && e.clientWidth > 0));
            }).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && e.className.baseVal === undefined ? "." + e.className : "")
                          + " " + Math.round(e.getBoundingClientRect().left) + "–" + Math.round(e.getBoundingClientRect().right));
            return [out, document.documentElement.scrollWidth];""")

    def small_targets(self):
        """Buttons, fields, menus and list or nav links less than 44 px tall (a checkbox's
        target is its label)."""
        return self.browser.execute_script("""
            const targets = [...document.querySelectorAll("button, select, summary, input:not([type=hidden]):not([type=checkbox]), nav a, .sights a, .log a, .calendar a, label:has(input[type=checkbox])")];
            return targets.filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height < 44; })
                          .map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + Math.round(e.getBoundingClientRect().height) + " px");""")

    def bright_pixels(self, name):
        """Saves a screenshot and counts its pixels that are not dark red: green or blue more
        than half the red (plus a little, for anti-aliasing). Returns (count, an example)."""
        from PIL import Image
        path = os.path.join(SHOTS, name)
        self.browser.save_screenshot(path)
        image = Image.open(path).convert("RGB")
        data, width = image.tobytes(), image.size[0]
        bad = [(i // 3 % width, i // 3 // width, tuple(data[i:i + 3])) for i in range(0, len(data), 3)
               if data[i + 1] > data[i] * 0.5 + 24 or data[i + 2] > data[i] * 0.5 + 24]
        return len(bad), bad[:3]

    def screenshots(self, name, path):
        """The page at `path` in each theme, 390×844; the account ends in the day theme."""
        for theme in THEMES:
            self.set_theme(theme)
            self.open(path)
            self.browser.save_screenshot(os.path.join(SHOTS, f"{name}-{theme}.png"))
        self.set_theme("day")

    def default_font_size(self, px):
        """Chromium's default font size (its text-size setting; 16 px out of the box), for
        every page opened from now until the scenario ends."""
        self.browser.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": px, "fixed": round(px * 13 / 16)}})
        if px != 16:
            self.addCleanup(self.browser.execute_cdp_cmd, "Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})

    def drawn_labels(self, drawing, at):
        """The labels of the drawing `drawing` (a CSS selector) once the page has placed them,
        after checking that they are no smaller than the page's smallest text (outside the
        drawings) and all one size, that none overlaps another or leaves the drawing, and that
        the page is no wider than the phone. Each label: its text, what it labels (`for`,
        `sight`), its font size in CSS px as shown, and its box."""
        self.wait(lambda: self.find(drawing).get_attribute("data-labels") == "placed", what=f"the labels of {drawing} placed")
        labels, body, sheet, width = self.browser.execute_script("""
            const shown = (e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
                                   return r.width > 0 && r.height > 0 && s.visibility === "visible" && s.display !== "none"; };
            const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
            const svg = document.querySelector(arguments[0]);
            const labels = [...svg.querySelectorAll("text")].filter(shown).map((t) => ({
              text: t.textContent, for: t.dataset.for || "", sight: t.dataset.sight || "",
              size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a, box: box(t)}));
            const own = [...document.querySelectorAll("body *")].filter((e) => !e.closest("svg") && shown(e)
              && [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()));
            return [labels, Math.min(...own.map((e) => parseFloat(getComputedStyle(e).fontSize))), box(svg), document.documentElement.scrollWidth];""", drawing)
        self.assertEqual([(l["text"], round(l["size"], 2)) for l in labels if l["size"] < body - 0.01], [], f"labels under the page's {body} px {at}")
        self.assertEqual(len({round(l["size"], 2) for l in labels}), 1, at)
        meet = lambda a, b: a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
        self.assertEqual([(a["text"], b["text"]) for i, a in enumerate(labels) for b in labels[i + 1:] if meet(a["box"], b["box"])], [], at)
        self.assertEqual([l["text"] for l in labels if l["box"][0] < sheet[0] - 0.5 or l["box"][1] < sheet[1] - 0.5
                          or l["box"][2] > sheet[2] + 0.5 or l["box"][3] > sheet[3] + 0.5], [], at)
        self.assertEqual(width, 390, at)
        print(f"\n  {drawing} {at}: labels {labels[0]['size']:.1f} px (the page's smallest text {body:.1f} px), {len(labels)} shown: "
              + ", ".join(l["text"] for l in labels), end="")
        return labels

    def small_links(self):
        """Every link and button shown that is less than 44 × 44 CSS px."""
        return self.browser.execute_script("""
            return [...document.querySelectorAll("a, button")].filter((e) => {
              const r = e.getBoundingClientRect(), s = getComputedStyle(e);
              return r.width > 0 && r.height > 0 && s.visibility === "visible" && (r.width < 44 || r.height < 44);
            }).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " '" + e.textContent.trim().slice(0, 30) + "' "
                          + Math.round(e.getBoundingClientRect().width) + "×" + Math.round(e.getBoundingClientRect().height) + " px");""")

    @staticmethod
    def contrast(a, b):
        """WCAG 2 contrast ratio of two sRGB colours."""
        def luminance(c):
            f = lambda v: v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
            r, g, b = (f(v / 255) for v in c[:3])
            return 0.2126 * r + 0.7152 * g + 0.0722 * b
        hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
        return (hi + 0.05) / (lo + 0.05)

    def low_contrast(self, minimum=4.5):
        """Every text shown on the page (an element's own text, a field's value or its
        placeholder, a file field's button, a `::before` label, a drawing's text) whose
        contrast against what is behind it is under `minimum`: its colour laid over the
        background colours of it and its ancestors (a drawing's paper for its text). Text
        under a CSS filter is read from a screenshot instead: its most common pixel is the
        background and the pixel most unlike it the ink. Disabled controls are exempt (WCAG)."""
        import io
        from collections import Counter
        from PIL import Image
        found, filtered, lowest = self.browser.execute_script("""
            const minimum = arguments[0];
            const rgba = (c) => { const p = (String(c).match(/[\\d.]+/g) || []).map(Number);
                                  return /^rgba?\\(/.test(c) && p.length >= 3 ? [p[0], p[1], p[2], p.length > 3 ? p[3] : 1] : null; };
            const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
            const lum = (c) => { const f = (v) => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
                                 return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
            const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
            const shown = (e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
                                   return r.width > 0 && r.height > 0 && s.visibility === "visible"; };
            const background = (e) => {
              const layers = [];
              for (let n = e; n; n = n.parentElement) {
                const c = rgba(getComputedStyle(n).backgroundColor);
                if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
              }
              return layers.reverse().reduce((under, c) => over(c, under), [255, 255, 255, 1]);
            };
            const opacity = (e) => { let o = 1; for (let n = e; n; n = n.parentElement) o *= parseFloat(getComputedStyle(n).opacity); return o; };
            const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (typeof e.className === "string" && e.className ? "." + e.className.split(" ").join(".") : "");
            const found = [], filtered = [], lowest = [Infinity, ""];
            const check = (e, what, colour, bg) => {
              const c = rgba(colour);
              if (!c || c[3] === 0) return;
              c[3] *= opacity(e);
              const r = ratio(over(c, bg), bg);
              if (r < lowest[0]) lowest.splice(0, 2, r, name(e) + " " + what);
              if (r < minimum) found.push(name(e) + " " + what + ": " + colour + " on rgb(" + bg.slice(0, 3).map(Math.round).join(", ") + ") " + r.toFixed(2) + ":1");
            };
            for (const e of document.querySelectorAll("body *")) {
              if (!shown(e) || e.closest(":disabled")) continue;
              const s = getComputedStyle(e);
              const own = [...e.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()).map((n) => n.textContent.trim()).join(" ");
              let filter = false;
              for (let n = e; n; n = n.parentElement) if (getComputedStyle(n).filter !== "none") filter = true;
              if (filter) { if (own && e instanceof SVGTextElement) filtered.push(e); continue; }
              const svg = e instanceof SVGElement ? e.ownerSVGElement : null;
              if (svg) {
                if (!(e instanceof SVGTextElement) || !own) continue;
                const paper = svg.querySelector(".sheet-bg");
                check(e, "'" + own.slice(0, 30) + "'", s.fill, paper ? over(rgba(getComputedStyle(paper).fill), background(svg)) : background(svg));
                continue;
              }
              const bg = background(e);
              if (own) check(e, "'" + own.slice(0, 30) + "'", s.color, bg);
              if (e.matches("input:not([type=checkbox]):not([type=radio]):not([type=range]):not([type=file]), textarea, select")) {
                if (e.value) check(e, "value", s.color, bg);
                else if (e.placeholder) check(e, "placeholder", getComputedStyle(e, "::placeholder").color, bg);
              }
              if (e.matches("input[type=file]")) {
                const b = getComputedStyle(e, "::file-selector-button");
                check(e, "file button", b.color, over(rgba(b.backgroundColor) || [0, 0, 0, 0], bg));
                check(e, "file name", s.color, bg);
              }
              const before = getComputedStyle(e, "::before");
              if (before.content && before.content !== "none" && before.content !== "normal" && before.content !== '""')
                check(e, "::before " + before.content.slice(0, 30), before.color, bg);
            }
            return [found, filtered, lowest];""", minimum)
        for e in filtered:
            self.browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", e)
            left, top, right, bottom = self.browser.execute_script(
                "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]", e)
            image = Image.open(io.BytesIO(self.browser.get_screenshot_as_png())).convert("RGB")
            data = image.crop((int(left), int(top), int(right + 0.999), int(bottom + 0.999))).tobytes()
            pixels = Counter(tuple(data[i:i + 3]) for i in range(0, len(data), 3))
            paper = pixels.most_common(1)[0][0]
            ink = max(pixels, key=lambda c: self.contrast(c, paper))
            if self.contrast(ink, paper) < lowest[0]:
                lowest = [self.contrast(ink, paper), f"{e.tag_name} '{e.text[:30]}' (under a filter)"]
            if self.contrast(ink, paper) < minimum:
                found.append(f"{e.tag_name} '{e.text[:30]}' (under a filter): rgb{ink} on rgb{paper} {self.contrast(ink, paper):.2f}:1")
        self.lowest_contrast = min(getattr(self, "lowest_contrast", [float("inf"), ""]), lowest)
        return found

    # Scenarios

    def test_a_stop_ends_even_with_an_idle_connection(self):
        # A browser opens connections ahead of use and may never send on them.
        idle = socket.create_connection(("127.0.0.1", self.pi.port))
        try:
            self.pi.process.terminate()
            self.assertEqual(self.pi.process.wait(timeout=30), 0)
        finally:
            idle.close()

    def test_log_in_shows_the_now_page(self):
        self.log_in()
        self.assertEqual(self.browser.current_url, self.pi.url + "/")
        self.live()
        self.assertEqual([a.text for a in self.found("nav a")], ["Now", "Sights", "Places", "People", "Tasks", "Tools", "Journal", "Settings"])
        self.screenshots("now", "/")

    def test_a_wrong_password_is_refused(self):
        self.expected_statuses = [401]
        self.log_in(password="wrong horse")
        self.assertEqual(self.find(".error").text, "Wrong name or password.")
        self.assertEqual(self.found("nav"), [])
        self.assertEqual(self.browser.get_cookies(), [])

    def test_the_sixth_failure_is_locked_out(self):
        self.expected_statuses = [401, 429]
        for _ in range(5):
            self.log_in(password="wrong horse")
            self.assertEqual(self.find(".error").text, "Wrong name or password.")
        # Even the right password is refused now.
        self.log_in()
        self.assertEqual(self.find("h1").text, "Locked out")
        self.assertIn("Try again after", self.find("main").text)
        self.browser.save_screenshot(os.path.join(SHOTS, "locked-out.png"))

    def test_create_an_account_with_an_invite(self):
        code = self.pi.cli("user", "invite").splitlines()[0]
        self.open("/signup")
        self.find("#code").send_keys(code)
        self.find("#new-user").send_keys("mate")
        self.find("#new-password").send_keys("long enough")
        self.submit("#signup")
        self.assertEqual(self.find("#logout").get_attribute("title"), "Log out mate")
        self.assertIn("mate", self.pi.cli("user", "list"))

    def test_change_password_then_log_in_with_the_new_one(self):
        self.expected_statuses = [401]
        self.log_in()
        self.open("/settings")
        self.find("#current").send_keys(PASSWORD)
        self.find("#new").send_keys("battery staple")
        self.submit("#change-password")
        self.assertTrue(self.browser.current_url.startswith(self.pi.url + "/login"))
        self.log_in()
        self.assertEqual(self.find(".error").text, "Wrong name or password.")
        self.log_in(password="battery staple")
        self.assertEqual(len(self.found("nav")), 1)
        self.screenshots("settings", "/settings")

    def test_an_open_page_goes_to_the_login_when_its_session_ends(self):
        # Given the Now page open and live
        self.log_in()
        self.live()
        # When the password is changed from the CLI (another process)
        self.pi.cli("user", "passwd", "skipper", "--password-stdin", stdin="battery staple\n")
        # Then the page leaves for the login at once, and MARK cannot store anything
        self.wait(lambda: self.browser.current_url.startswith(self.pi.url + "/login"), what="the page to go to the login")
        self.assertEqual(self.pi.sights(), [])

    def test_the_theme_persists_across_logins(self):
        self.log_in()
        self.set_theme("sunlight")
        self.submit("#logout")
        self.assertTrue(self.browser.current_url.startswith(self.pi.url + "/login"))
        self.log_in()
        self.assertEqual(self.find("html").get_attribute("data-theme"), "sunlight")
        self.assertEqual(self.find("body").value_of_css_property("background-color"), "rgba(38, 38, 38, 1)")

    gps = ("test_mark_stores_a_phone_sight_at_the_touch", "test_a_time_signal_named_on_the_now_page_reaches_the_daemon",
           "test_the_quick_entry_after_a_mark_keeps_the_reading_through_the_daemon", "test_say_it_on_the_pi_reads_the_preset_through_the_daemon")

    def test_mark_stores_a_phone_sight_at_the_touch(self):
        self.log_in()
        self.live()
        before = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        self.find("#mark").click()
        # The list may show it (the next live snapshot) before the page hears the answer: both awaited
        self.wait(lambda: self.found("#sights li[data-id='1']") and self.find("#mark-state").text.startswith("Stored sight 1 at "),
                  what="the sight in the list, and the page saying it was stored")
        after = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        [sight] = self.pi.sights()
        self.assertEqual(sight["trigger"], "phone")
        # The touch's own instant, mapped onto this machine's CLOCK_MONOTONIC by the clock
        # sync, lies between the moments before the click and after the answer; the sync's
        # error on loopback is a fraction of a millisecond, so 5 ms of slack is ample.
        self.assertGreaterEqual(sight["monotonic_ns"], before - 5_000_000)
        self.assertLessEqual(sight["monotonic_ns"], after)
        # Its time comes from the daemon's GPS clock, and its uncertainty is that sample's,
        # carried to the touch at 100 ppm, plus half the round trip of the sync exchange
        # that mapped the touch (both in its provenance).
        provenance = sight["provenance"]
        [sample] = provenance["samples"]
        self.assertEqual((sight["source"], sample["source"], sample["uncertainty_s"]), ("gps", "gps", 0.5))
        self.assertTrue(sight["utc"].startswith("2025-03-14T10:"), sight["utc"])
        # (to 10 ns: the Pi halves the round trip in whole nanoseconds)
        self.assertAlmostEqual(sight["uncertainty_s"],
                               0.5 + 100e-6 * abs(sample["distance_s"]) + provenance["phone_round_trip_s"] / 2, places=8)
        print(f"\n  phone MARK: sync round trip {provenance['phone_round_trip_s'] * 1000:.3f} ms, "
              f"sample {sample['distance_s'] * 1000:.0f} ms before, uncertainty {sight['uncertainty_s'] * 1000:.3f} ms")
        self.screenshots("mark", "/")

    def test_the_quick_entry_after_a_mark_keeps_the_reading_through_the_daemon(self):
        # Given a sight whose height of eye the prediction takes, and the page live (the daemon runs)
        self.pi.cli("mark")
        self.pi.cli("sight", "edit", "1", "--eye-height", "2.5")
        self.log_in()
        for theme in ("day", "night"):
            with self.subTest(theme=theme):
                self.set_theme(theme)
                self.open("/")
                self.live()
                n = len(self.pi.sights()) + 1
                # When MARK is tapped
                self.find("#mark").click()
                # Then the quick entry opens for that sight: a body preselected from the plan, Hs predicted
                self.wait(lambda: self.find("#quick").is_displayed() and self.find("#quick-sight").text == str(n), what="the quick entry")
                chosen = Select(self.find("#quick-body")).first_selected_option.get_attribute("value")
                self.assertNotEqual(chosen, "")
                predicted = self.find("#quick-hs").text
                self.assertRegex(predicted, r"^Hs \d+° \d\d'\.\d$")
                self.assertIn("predicted", self.find("#quick-hs").get_attribute("class"))
                # It fits the phone, its keys are big enough for wet hands, and every text can be read
                self.assertEqual(self.overflow(), [[], 390])
                self.assertEqual(self.small_targets(), [])
                self.assertEqual(self.low_contrast(), [])
                self.browser.execute_script("document.getElementById('quick').scrollIntoView()")
                self.browser.save_screenshot(os.path.join(SHOTS, f"quick-entry-{theme}.png"))
                # A reading that is not an angle is refused in words, and changes nothing
                for key in "3490":
                    self.find(f"#quick-keys [data-key='{key}']").click()
                self.assertEqual(self.find("#quick-hs").text, "Hs 34° 90'")
                self.find("#quick-keep").click()
                self.wait(lambda: self.find("#quick-hint").get_attribute("class") == "error", what="the refusal")
                self.assertIn("'3490' is not an angle: its minutes (90) must be under 60", self.find("#quick-hint").text)
                self.assertIsNone(next(s for s in self.pi.sights() if s["id"] == n)["hs"])
                # When 3412.3 is typed (the first key replaces what was there) and kept with one tap
                for key in ["back"] * 4 + list("3412.3"):
                    self.find(f"#quick-keys [data-key='{key}']").click()
                self.assertEqual(self.find("#quick-hs").text, "Hs 34° 12'.3")
                self.find("#quick-keep").click()
                # Then the daemon's writer kept it on that sight, with the body chosen, and the entry closes
                self.wait(lambda: not self.find("#quick").is_displayed(), what="the entry to close once kept")
                self.assertEqual(self.find("#mark-state").text, f"Kept sight {n}: {chosen}, Hs 34° 12'.3.")
                sight = next(s for s in self.pi.sights() if s["id"] == n)
                self.assertEqual((sight["body"], sight["hs"]), (chosen, 34 + 12.3 / 60))
                with open(self.pi.daemon_log.name) as f:
                    self.assertIn(f"reading kept from the phone: sight {n}: {chosen}, Hs 34° 12'.3", f.read())
        self.set_theme("day")

    def test_a_time_signal_named_on_the_now_page_reaches_the_daemon(self):
        # The daemon waits 2 s for the press on the tick. No button is pressed here (the rig
        # presses one through uinput, for the command line), so the daemon answers that none
        # came, and the page shows that answer with the form as it was typed.
        self.expected_statuses = [422]
        self.log_in()
        self.find("#time-signal summary").click()
        self.find("#signal-tick").send_keys("10:05")
        self.find("#signal-within").send_keys("2")
        self.submit("#signal-wait")
        self.assertEqual(self.find(".error").text, "Time signal not taken: no press within 2 s of asking: nothing changed; "
                         "run `marktime clock signal` again a little before the tick")
        self.assertEqual(self.find("#signal-tick").get_attribute("value"), "10:05")
        with open(self.pi.daemon_log.name) as log:
            self.assertIn("waiting 2 s for a press on the time signal's tick of 10:05:00 UTC", log.read())

    def test_a_cli_mark_appears_on_the_page_without_a_reload(self):
        self.log_in()
        self.live()
        start = time.monotonic()
        self.pi.cli("mark", "--note", "from the CLI")
        self.wait(lambda: self.found("#sights li[data-id='1']"), what="the CLI's sight on the page")
        print(f"\n  marktime mark → on the page: {(time.monotonic() - start) * 1000:.0f} ms (the CLI's own run included)")
        self.assertIn("cli", self.find("#sights li[data-id='1']").text)

    def test_the_sight_log_follows_a_cli_mark_without_a_reload(self):
        self.log_in()
        self.open("/sights")
        self.wait(lambda: self.browser.execute_script("return document.querySelector('main').textContent.includes('0 sights')"),
                  what="the empty log")
        self.pi.cli("mark")
        self.wait(lambda: self.found(".log tr[data-id='1']"), what="the CLI's sight in the log")

    def test_the_sight_log_follows_a_cli_mark_on_a_slow_disk(self):
        # A commit shows only after its sync, which no file event marks: the page must still
        # fetch the log once the sight is there, however long the sync took.
        self.log_in()
        self.open("/sights")
        self.wait(lambda: self.browser.execute_script("return document.querySelector('main').textContent.includes('0 sights')"),
                  what="the empty log")
        self.pi.cli("mark", sync_delay_ms=400)
        self.wait(lambda: self.found(".log tr[data-id='1']"), what="the CLI's sight in the log")

    def test_edit_a_sight(self):
        self.pi.cli("mark")
        self.log_in()
        self.open("/sights/1")
        self.find("#body").send_keys("Sun")
        Select(self.find("#limb")).select_by_value("lower")
        self.find("#hs").send_keys("34 12.3")
        self.submit("#save")
        self.assertEqual(self.find(".notice").text, "Saved.")
        [sight] = self.pi.sights()
        self.assertEqual((sight["body"], sight["limb"], sight["hs"]), ("Sun", "lower", 34 + 12.3 / 60))
        self.screenshots("sight", "/sights/1")

    def test_add_a_place(self):
        self.log_in()
        self.open("/places")
        self.find("details:has(#add-place) summary").click()
        self.find("#place-name").send_keys("Home")
        Select(self.find("#kind")).select_by_value("home")
        self.find("#place-radius").send_keys("150")
        self.find("#place-position").send_keys("-27.3807 153.3807")
        self.submit("#add-place-button")
        self.assertEqual(len(self.found("#places tr[data-name='Home']")), 1)
        [place] = json.loads(self.pi.cli("place", "list", "--format", "json"))
        self.assertEqual((place["name"], place["kind"], place["radius_m"]), ("Home", "home", 150))
        self.screenshots("places", "/places")

    def test_the_anchor_alarm_shows_and_is_acknowledged(self):
        self.pi.cli("anchor", "drop", "--position", "-27.3807 153.3807", "--radius", "50")
        self.log_in()
        self.open("/places")
        self.wait(lambda: self.find("#anchor").get_attribute("data-state") == "watching", what="the watch")
        # The daemon's part, as it writes it after three fixes outside the radius: this
        # scenario is about the page, so the alarm is set in the store directly.
        with sqlite3.connect(self.pi.store) as db:
            db.execute("UPDATE anchor_watch SET state = 'alarm', outside = 3")
        self.wait(lambda: self.found("#ack"), what="Acknowledge, without a reload")
        self.wait(lambda: "alarm" in self.find("body").get_attribute("class").split(), what="the page to flash")
        self.browser.save_screenshot(os.path.join(SHOTS, "anchor-alarm.png"))
        self.submit("#ack")
        self.assertEqual(self.find(".notice").text, "Alarm silenced; watching again.")
        self.assertEqual(json.loads(self.pi.cli("anchor", "status", "--format", "json"))["state"], "watching")
        self.wait(lambda: "alarm" not in (self.find("body").get_attribute("class") or "").split(), what="the flashing to stop")
        self.screenshots("anchor", "/places")


    config = {"test_the_people_slider_moves_every_time": "[home]\nzone = 'Australia/Brisbane'\n"}

    def test_the_people_slider_moves_every_time(self):
        self.pi.cli("people", "add", "Ann", "new york")
        self.pi.cli("people", "add", "Raj", "Asia/Calcutta")
        self.log_in()
        # Given 09:30 in Brisbane on 1 July 2026 (New York on EDT, Kolkata on IST)
        self.open("/people?date=2026-07-01&minute=570")
        clock = lambda name: self.find(f'#clocks li[data-row="{name}"] .time').text
        day = lambda name: self.find(f'#clocks li[data-row="{name}"] .day').text
        self.assertEqual((clock("Ann"), day("Ann"), clock("Raj"), day("Raj")), ("19:30", "-1d", "05:00", ""))
        # When the slider goes to midnight, then 90 minutes on, by the keyboard
        slider = self.find("#minute")
        slider.send_keys(Keys.HOME)
        self.assertEqual((self.find("#minute-text").text, clock("Ann"), clock("Raj"), day("Raj")), ("00:00", "10:00", "19:30", "-1d"))
        for _ in range(90):
            slider.send_keys(Keys.ARROW_RIGHT)
        # Then every clock has moved with it, and the panel wears the sky at the minute
        self.assertEqual((self.find("#minute-text").text, clock("Ann"), clock("Raj")), ("01:30", "11:30", "21:00"))
        self.assertEqual(self.find('#clocks li[data-row="Ann"] .sky').text, "day")
        self.assertNotEqual(self.find("#align").value_of_css_property("background-color"), "rgba(0, 0, 0, 0)")
        # And a person hidden from the page leaves the board
        self.submit('tr[data-name="Raj"] button.select')
        self.assertEqual(self.find(".notice").text, "Hiding Raj.")
        self.assertEqual([li.get_attribute("data-row") for li in self.found("#clocks li[data-row]")], ["Ann"])
        self.screenshots("people", "/people?date=2026-07-01&minute=570")

    def test_tasks_add_done_and_what_a_course_needs(self):
        self.pi.cli("course", "add", "NAV101", "--name", "Celestial Navigation")
        self.pi.cli("course", "weight", "NAV101", "Exams", "60")
        self.pi.cli("course", "weight", "NAV101", "Homework", "40")
        self.pi.cli("grade", "add", "NAV101", "Midterm", "--type", "Exams", "--score", "80")
        self.pi.cli("grade", "add", "NAV101", "Final", "--type", "Exams")
        self.pi.cli("grade", "add", "NAV101", "HW1", "--type", "Homework", "--score", "95")
        self.log_in()
        self.open("/tasks")
        self.find("details summary").click()
        self.find("#task-title").send_keys("Submit plotting sheet")
        self.find("#due").send_keys("2099-12-01 09:00")
        self.find("#remind").send_keys("1h-before")
        Select(self.find("#task-course")).select_by_value("NAV101")
        self.submit("#add-task-button")
        self.assertTrue(self.find(".notice").text.startswith("Added task 1: Submit plotting sheet, due 2099-12-01 09:00"))
        task = json.loads(self.pi.cli("task", "list", "--format", "json"))[0]
        self.assertEqual((task["title"], task["course"], task["remind"]), ("Submit plotting sheet", "NAV101", "2099-12-01T08:00:00Z"))
        # A task added on the Pi appears without a reload
        self.pi.cli("task", "add", "Wind the chronometer", "--due", "2099-11-30 08:00")
        self.wait(lambda: len(self.found("#tasks li[data-id]")) == 2, what="the CLI's task on the page")
        self.assertEqual([li.get_attribute("data-id") for li in self.found("#tasks li[data-id]")], ["2", "1"])
        self.screenshots("tasks", "/tasks?course=NAV101&target=A")
        self.open("/tasks")
        self.submit('#tasks li[data-id="2"] .done-button')
        self.assertEqual(self.find(".notice").text, "Task 2 done.")
        done = {t["id"]: t["done_at"] is not None for t in json.loads(self.pi.cli("task", "list", "--all", "--format", "json"))}
        self.assertEqual(done, {1: False, 2: True})
        Select(self.find('.course[data-code="NAV101"] select')).select_by_value("A")
        self.submit('.course[data-code="NAV101"] .need-button')
        self.assertEqual(self.find(".course .current").text, "88.57% (B)")
        self.assertEqual(self.find(".course .need").text,
                         "for A (90%): average 93.33% on the 30.00% still pending (secured 62.00, at best 92.00%)")

    def test_a_list_that_could_not_be_fetched_again_is_fetched_once_it_can_be(self):
        # Given the tasks page, open while the Wi-Fi drops its fetches of the page (Chromium
        # blocks them, so the refresh fails as a lost connection would)
        self.log_in()
        self.open("/tasks")
        self.expected_errors = ["net::ERR_BLOCKED_BY_CLIENT"]
        self.browser.execute_cdp_cmd("Network.enable", {})
        self.addCleanup(self.browser.execute_cdp_cmd, "Network.disable", {})
        self.addCleanup(self.browser.execute_cdp_cmd, "Network.setBlockedURLs", {"urls": []})
        self.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": [f"{self.pi.url}/tasks*"]})
        # When a task is added on the Pi, and the page's fetch of its list has failed
        self.pi.cli("task", "add", "Wind the chronometer", "--due", "2099-11-30 08:00")
        console = []
        self.wait(lambda: console.extend(self.browser.get_log("browser"))
                  or any("could not be fetched again" in e["message"] for e in console), what="the page's failed fetch")
        # And the connection comes back
        self.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        # Then the page fetches its list again by itself, and the task is on it
        self.wait(lambda: len(self.found("#tasks li[data-id]")) == 1, what="the task after the retry")
        self.assertEqual(self.find("#tasks li[data-id] .title").text, "Wind the chronometer")

    def test_the_journal_takes_a_moment_and_a_photo_from_the_phone(self):
        self.log_in()
        self.open("/journal")
        self.find("#today").click()
        self.wait(lambda: self.found("#add-moment"), what="today's page")
        self.find("#moment").send_keys("Dolphins off the bow")
        self.submit("#add-moment-button")
        self.assertEqual(self.find(".notice").text, "Moment 1 added.")
        # A photo chosen in the file picker (here a 640×480 PNG on disk), sent as it is
        picture = self.png("sunset.png", 640, 480)
        self.find("#photo").send_keys(picture)
        self.find("#caption").send_keys("Green flash")
        self.find("#add-photo-button").click()
        self.wait(lambda: self.find("#photo-state").text.startswith("Photo 2 added: 640×480 png"), what="the photo's answer")
        self.wait(lambda: self.found("#entries img"), what="the photo on the page, without a reload")
        self.assertEqual(self.find("#entries img").get_attribute("alt"), "Green flash")
        day = json.loads(self.pi.cli("day", "--format", "json"))
        self.assertEqual([(e["kind"], e["text"]) for e in day["entries"]], [("moment", "Dolphins off the bow"), ("photo", "Green flash")])
        # The same image again is kept once
        self.find("#photo").send_keys(picture)
        self.find("#add-photo-button").click()
        self.wait(lambda: self.find("#photo-state").text == "Photo 2 already has this image: kept once.", what="the duplicate's answer")
        self.screenshots("journal", "/journal")

    def test_a_photo_goes_in_without_javascript(self):
        self.log_in()
        self.open("/journal")
        self.find("#today").click()
        self.wait(lambda: self.found("#add-photo"), what="today's page")
        # The form as a browser without JavaScript has it: a copy of it has none of the
        # script's listeners, so Chromium posts multipart/form-data itself, the token in
        # the action's query. (Chromedriver cannot drive a page whose scripts are off.)
        self.browser.execute_script("const f = document.getElementById('add-photo'); f.replaceWith(f.cloneNode(true))")
        picture = self.png("reef.png", 320, 200)
        self.find("#photo").send_keys(picture)
        self.find("#caption").send_keys("Reef at low water")
        self.submit("#add-photo-button")
        self.assertTrue(self.find(".notice").text.startswith("Photo 1 added: 320×200 png"), self.find("main").text[:300])
        self.assertEqual(self.find("#entries img").get_attribute("alt"), "Reef at low water")
        day = json.loads(self.pi.cli("day", "--format", "json"))
        self.assertEqual([(e["kind"], e["text"]) for e in day["entries"]], [("photo", "Reef at low water")])

    def test_the_fix_page_draws_the_plotting_sheet(self):
        fix = self.star_sights()
        self.log_in()
        self.open("/fix?ids=" + ",".join(fix))
        # The sheet fills the phone's width, no wider, and has a line for each sight
        sheet = self.find("svg.plotting-sheet")
        width = self.browser.execute_script("return arguments[0].getBoundingClientRect().width", sheet)
        self.assertLessEqual(width, 390)
        self.assertGreater(width, 300)
        self.assertEqual(len(self.found("svg.plotting-sheet g.lop")), 5)
        # Its colours come from the theme: the line of position is the day's blue, then the night's red
        stroke = lambda: self.browser.execute_script("return getComputedStyle(document.querySelector('svg.plotting-sheet .lop-line')).stroke")
        self.assertEqual(stroke(), "rgb(11, 92, 173)")
        self.browser.execute_script("window.scrollTo(0, document.querySelector('svg.plotting-sheet').getBoundingClientRect().top + scrollY)")
        self.browser.save_screenshot(os.path.join(SHOTS, "fix-sheet-day.png"))
        self.set_theme("night")
        self.open("/fix?ids=" + ",".join(fix))
        self.assertEqual(stroke(), "rgb(229, 57, 53)")
        self.set_theme("day")
        self.screenshots("fix", "/fix?ids=" + ",".join(fix))

    def test_the_plan_ticks_the_preset_live_and_marks_the_next_body(self):
        # A DR on the equator near local midnight (the Sun's GHA from the hour, within the
        # equation of time's 4 degrees): stars to plan whenever the test runs
        now = time.gmtime()
        lon = (180 - ((now.tm_hour + now.tm_min / 60 - 12) * 15)) % 360
        lon = lon - 360 if lon > 180 else lon
        dr = "0 00 N %d %s" % (round(abs(lon)), "W" if lon < 0 else "E")
        # The live list, read in one go on the page's own thread: [body, next, text, Hs]
        rows = lambda: self.browser.execute_script(
            "return [...document.querySelectorAll('#plan-live-list li')].map(li => "
            "[li.dataset.body, li.classList.contains('next'), li.textContent, li.querySelector('.hs').textContent])")
        self.log_in()
        self.open("/tools?tool=plan&eye=2.5&ie=-1.2&position=" + dr.replace(" ", "+"))
        # The chosen three appear live under "Now", the first marked next
        self.wait(lambda: len(rows()) == 3 and all(r[3] for r in rows()), what="the live preset's three bodies")
        self.assertTrue(self.find("#plan-live").is_displayed())
        shown = rows()
        self.assertEqual([r[1] for r in shown], [True, False, False])
        self.assertTrue(shown[0][2].startswith("▶ "))
        for r in shown:
            self.assertRegex(r[3], r"^Hs -?\d+° \d\d'\.\d$")
        # Each body is the plan's chosen one, in the plan's order
        chosen = [li.find_element(By.CSS_SELECTOR, "span").text for li in self.found("#plan-chosen li")]
        self.assertEqual([r[0] for r in shown], chosen)
        # The clock ticks on
        first = self.find("#plan-live-utc").text
        self.wait(lambda: self.find("#plan-live-utc").text not in ("", first), what="the live clock to move on")
        # "Next body" marks the second, and a tap on the third marks it
        self.find("#plan-live-next").click()
        self.wait(lambda: [r[1] for r in rows()] == [False, True, False], what="the second body marked next")
        self.browser.execute_script("document.querySelectorAll('#plan-live-list li')[2].click()")
        self.wait(lambda: [r[1] for r in rows()] == [False, False, True], what="the third body marked next")
        self.set_theme("night")
        self.open("/tools?tool=plan&eye=2.5&ie=-1.2&position=" + dr.replace(" ", "+"))
        self.wait(lambda: len(rows()) == 3, what="the live preset at night")
        self.browser.execute_script("document.getElementById('plan-live').scrollIntoView()")
        self.browser.save_screenshot(os.path.join(SHOTS, "plan-live-night.png"))
        self.set_theme("day")

    def test_say_it_on_the_pi_reads_the_preset_through_the_daemon(self):
        # A DR on the equator near local midnight, as in the plan's scenario: stars whenever the test runs
        now = time.gmtime()
        lon = (180 - ((now.tm_hour + now.tm_min / 60 - 12) * 15)) % 360
        lon = lon - 360 if lon > 180 else lon
        dr = "0 00 N %d %s" % (round(abs(lon)), "W" if lon < 0 else "E")
        self.log_in()
        self.open("/tools?tool=plan&eye=2.5&ie=-1.2&position=" + dr.replace(" ", "+"))
        self.wait(lambda: self.find("#plan-live").is_displayed() and self.found("#plan-live-list li"), what="the live preset")
        self.live_socket()
        # When Say it on the Pi is tapped
        self.find("#plan-live-say").click()
        self.wait(lambda: self.find("#plan-live-said").text.startswith("Said on the Pi"), what="the page to say it was sent")
        spoken = self.find("#plan-live-said").text.split(": ", 1)[1]
        # Then it is the next body's preset as a navigator reads it, and the daemon was asked to say it
        first = self.browser.execute_script("return document.querySelector('#plan-live-list li').dataset.body")
        self.assertRegex(spoken, "^" + first.split(" ")[0] + r".*, [a-z -]+ (zero zero|oh [a-z]+|[a-z-]+), bearing [a-z]+ [a-z]+ [a-z]+$")
        self.wait(lambda: f"saying for another process: {spoken}" in pathlib.Path(self.pi.daemon_log.name).read_text(), what="the daemon to say it")

    def test_no_page_is_wider_than_a_phone_at_any_text_size(self):
        paths = self.a_full_boat()
        self.log_in()
        for font in ["small", "normal", "large"]:
            for theme in THEMES:
                self.set_appearance(theme, font)
                for path in paths:
                    self.open(path)
                    outside, width = self.overflow()
                    self.assertEqual((outside, width), ([], 390), f"{path} at {font} text, {theme}")
                    self.assertEqual(self.small_targets(), [], f"{path} at {font} text, {theme}")
                    if path == "/":
                        # The big UTC on one line: no taller than one line of its own font.
                        height, size = self.browser.execute_script(
                            "const u = document.getElementById('utc'); return [u.getBoundingClientRect().height, parseFloat(getComputedStyle(u).fontSize)]")
                        self.assertLess(height, size * 1.6, f"the UTC wraps at {font} text")
                    if theme == "day":
                        self.browser.save_screenshot(os.path.join(SHOTS, f"width-{font}{path.replace('/', '-')}.png"))

    def test_no_page_is_wider_than_a_phone_at_the_phones_larger_text_sizes(self):
        # The page's text sizes follow the phone's own (Chromium's default font here)
        paths = self.a_full_boat()
        self.log_in()
        wide = {}
        for default in [24, 32]:
            self.default_font_size(default)
            for font in ["normal", "large"]:
                self.set_appearance("day", font)
                for path in paths:
                    self.open(path)
                    outside, width = self.overflow()
                    if outside or width != 390 or self.small_targets():
                        wide[f"{path} at {font} text, {default} px default"] = (width, outside[:4], self.small_targets())
                    self.browser.save_screenshot(os.path.join(SHOTS, f"width-{default}px-{font}{path.replace('/', '-')}.png"))
        self.maxDiff = None
        self.assertEqual(wide, {})

    def test_the_night_theme_is_dark_red_everywhere(self):
        paths = self.a_full_boat()
        self.log_in()
        self.set_appearance("night", "normal")
        for path in paths:
            self.open(path)
            self.assertEqual(self.bright_pixels(f"night{path.replace('/', '-')}.png"), (0, []), path)
        # The login page after logging out stays in the night theme on this phone
        self.submit("#logout")
        self.assertEqual(self.find("html").get_attribute("data-theme"), "night")
        self.assertEqual(self.bright_pixels("night-login.png"), (0, []), "/login")

    def test_the_sheets_labels_grow_with_the_text_size_and_never_overlap(self):
        # Given a fix of five lines (Sirius twice, so two lines side by side) on a 390 px phone
        fix = self.star_sights()
        self.log_in()
        sizes = {}
        for default in [16, 24, 32]:
            # When the phone's text size (Chromium's default font) and the page's own are changed
            self.default_font_size(default)
            for font in ["small", "normal", "large"]:
                self.set_appearance("day", font)
                self.open("/fix?ids=" + ",".join(fix))
                at = f"at {font} text, {default} px default"
                # Then no label is smaller than the page's smallest text, all are one size, none
                # overlaps another or leaves the sheet, and the page is no wider than the phone
                labels = self.drawn_labels("svg.plotting-sheet", at)
                self.browser.execute_script("arguments[0].scrollIntoView()", self.find("svg.plotting-sheet"))
                self.browser.save_screenshot(os.path.join(SHOTS, f"sheet-{default}px-{font}.png"))
                sizes[default, font] = labels[0]["size"]
                # And the fix and every line keep a label
                self.assertEqual(sorted({l["sight"] for l in labels if l["for"] == "lop"}), sorted(fix), at)
                self.assertEqual([l["for"] for l in labels].count("fix"), 1, at)
                # And so does the chart of a run, with its average labelled
                self.open("/tools?tool=average&ids=" + ",".join(fix[:2]))
                chart = self.drawn_labels("svg.run-chart", at)
                self.assertAlmostEqual(chart[0]["size"], labels[0]["size"], places=2)
                self.assertIn("average", [l["for"] for l in chart], at)
                self.browser.execute_script("arguments[0].scrollIntoView()", self.find("svg.run-chart"))
                self.browser.save_screenshot(os.path.join(SHOTS, f"run-chart-{default}px-{font}.png"))
        # And the labels grow with both text sizes
        for font in ["small", "normal", "large"]:
            self.assertAlmostEqual(sizes[24, font] / sizes[16, font], 1.5, delta=0.02, msg=font)
            self.assertAlmostEqual(sizes[32, font] / sizes[16, font], 2, delta=0.02, msg=font)
        for default in [16, 24, 32]:
            self.assertLess(sizes[default, "small"], sizes[default, "normal"])
            self.assertLess(sizes[default, "normal"], sizes[default, "large"])

    def test_the_fix_page_says_each_warning_once(self):
        # Given five sights past the last measured ΔT, each flagged by the library
        fix = self.star_sights()
        flags = [f["message"] for f in json.loads(self.pi.cli("fix", *fix, "--format", "json"))["flags"]]
        delta_t = [f.split(": ", 1)[1] for f in flags if f.split(": ", 1)[1].startswith("past the last measured ΔT")]
        self.assertEqual(len(delta_t), 5)
        self.assertEqual(len(set(delta_t)), 1)
        # When their fix is shown
        self.log_in()
        self.open("/fix?ids=" + ",".join(fix))
        # Then the warning is said once, naming its sights, and no warning twice
        said = [li.text for li in self.found("ul.flags li")]
        self.assertEqual([t for t in said if "ΔT" in t], [f"sights {', '.join(fix)}: {delta_t[0]}"])
        self.assertEqual(len(said), len(set(said)))
        top = self.browser.execute_script("return document.querySelector('svg.plotting-sheet').getBoundingClientRect().top + scrollY")
        print(f"\n  the sheet's top: {top:.0f} px down the page", end="")

    def test_a_long_address_wraps_and_widens_no_page(self):
        # Given a moment, a sight's note and a photo's caption that are each a 300-character
        # address, and a task, a place and a person named with a 100-character one (the
        # longest name), with the rest of a full boat
        url = "https://example.com/" + "ChartCorrections2026" * 14  # no hyphen or other break after its first slash
        self.assertEqual(len(url), 300)
        paths = self.a_full_boat()
        self.pi.cli("task", "add", url[:100], "--due", "2030-01-01T17:00Z")
        self.pi.cli("place", "add", url[:100], "--position", "-27.5 153.5", "--radius", "100")
        self.pi.cli("people", "add", url[:100], "london")
        self.pi.cli("day", "note", url)
        self.pi.cli("sight", "edit", "1", "--note", url)
        self.pi.cli("day", "photo", "add", self.picture("chart.png"), "--caption", url)
        self.log_in()
        wide = {}
        for font in ["small", "normal", "large"]:
            self.set_appearance("day", font)
            for path in paths + ["/tasks?all=1"]:
                self.open(path)
                # Then it wraps: nothing reaches past the phone's 390 px and no text leaves its box
                outside, width = self.overflow()
                if outside or width != 390:
                    wide[f"{path} at {font} text"] = (width, outside[:4])
        self.maxDiff = None
        self.assertEqual(wide, {})

    def test_every_link_and_button_is_a_44_px_target(self):
        paths = self.a_full_boat()
        self.log_in()
        small = {}
        for font in ["small", "normal", "large"]:
            self.set_appearance("day", font)
            for path in paths + ["/tasks?all=1"]:
                self.open(path)
                if self.small_links():
                    small[f"{path} at {font} text"] = self.small_links()
        self.submit("#logout")
        self.expected_statuses = [404]
        for path in ["/login", "/signup", "/no-such-page"]:
            self.open(path)
            if self.small_links():
                small[path] = self.small_links()
        self.maxDiff = None
        self.assertEqual(small, {})

    def test_every_text_in_the_night_theme_meets_4_5_to_1(self):
        paths = self.a_full_boat()
        self.log_in()
        self.set_appearance("night", "normal")
        low = {}
        for path in paths + ["/tasks?all=1"]:
            self.open(path)
            if path == "/":
                self.live()  # MARK is disabled (and exempt) until the clock syncs
            if found := self.low_contrast():
                low[path] = found
        self.submit("#logout")
        self.expected_statuses = [404]
        for path in ["/login", "/signup", "/no-such-page"]:
            self.open(path)
            self.assertEqual(self.find("html").get_attribute("data-theme"), "night")
            if found := self.low_contrast():
                low[path] = found
        print(f"\n  the lowest contrast: {self.lowest_contrast[0]:.2f}:1 ({self.lowest_contrast[1]})", end="")
        self.maxDiff = None
        self.assertEqual(low, {})

    def test_the_login_follows_a_phones_dark_preference(self):
        # Given a phone set to dark that never logged in here (this Pi's origin is new)
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        try:
            self.open("/login")
            # Then the login is the night theme's dark red, not the day's white
            self.assertEqual(self.find("html").get_attribute("data-theme"), "auto")
            self.assertEqual(self.find("body").value_of_css_property("background-color"), "rgba(0, 0, 0, 1)")
            self.assertEqual(self.bright_pixels("dark-preference-login.png"), (0, []))
        finally:
            self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_a_lost_connection_greys_the_clock_and_says_how_old_it_is(self):
        self.log_in()
        self.live()
        # When the Pi's page stops (as a lost Wi-Fi would end the connection)
        self.pi.process.terminate()
        self.assertEqual(self.pi.process.wait(timeout=30), 0)
        self.expected_errors = ["WebSocket connection", "ERR_CONNECTION_REFUSED"]
        # Then the clock greys and says how long since the Pi's last time, counting up
        self.wait(lambda: "stale" in self.find("#utc").get_attribute("class").split(), what="the clock to grey")
        self.wait(lambda: self.find("#stale").text.startswith("No connection to the Pi for "), what="the age of the last time")
        self.wait(lambda: self.find("#stale").text.startswith("No connection to the Pi for 2 s"), timeout=20, what="the age to count")
        self.assertFalse(self.find("#mark").is_enabled())
        self.assertEqual(self.find("#utc").value_of_css_property("opacity"), "0.6")
        self.browser.save_screenshot(os.path.join(SHOTS, "stale-clock.png"))

    def test_the_page_installs_and_shows_the_last_pages_offline(self):
        self.pi.cli("mark", "--quiet")
        self.log_in()
        # The manifest, served and valid, and its icon
        manifest = json.loads(self.browser.execute_async_script(
            "const done = arguments[0]; fetch('/manifest.webmanifest').then((r) => r.text()).then(done)"))
        self.assertEqual((manifest["name"], manifest["start_url"], manifest["display"]), ("marktime", "/", "standalone"))
        self.assertEqual(self.browser.execute_async_script(
            "const done = arguments[1]; fetch(arguments[0]).then((r) => done(r.status + ' ' + r.headers.get('content-type')))", manifest["icons"][0]["src"]),
            "200 image/svg+xml")
        # The service worker in control, and Chromium has nothing against installing
        self.browser.execute_async_script("const done = arguments[0]; navigator.serviceWorker.ready.then(() => done(true))")
        self.open("/sights")
        self.wait(lambda: self.browser.execute_script("return navigator.serviceWorker.controller !== null"), what="the service worker to control the page")
        self.assertEqual(self.browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"], [])
        self.open("/sights")  # kept by the worker
        # When the Pi cannot be reached
        self.pi.process.terminate()
        self.assertEqual(self.pi.process.wait(timeout=30), 0)
        self.expected_errors = ["WebSocket connection", "ERR_CONNECTION_REFUSED", "Failed to fetch", "the page's lists"]
        self.open("/sights")
        # Then the log is there as it was, marked as offline
        self.wait(lambda: self.find("main").get_attribute("data-offline"), what="the offline mark")
        self.assertEqual(len(self.found("tr[data-id='1']")), 1)
        self.browser.save_screenshot(os.path.join(SHOTS, "offline-sights.png"))
        # And it carries the Pi's Content-Security-Policy: a script written into it does not run
        self.expected_errors.append("Content Security Policy")
        self.assertFalse(self.browser.execute_script(
            "const s = document.createElement('script'); s.textContent = 'window.inlineRan = true';"
            " document.head.appendChild(s); return window.inlineRan === true"))

    def kept_pages(self):
        """The paths of the pages the service worker keeps (not its shell of assets)."""
        return [p for p in self.browser.execute_async_script("""
            const done = arguments[0];
            caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys()))))
              .then((lists) => done(lists.flat().map((r) => new URL(r.url).pathname)));""")
                if not p.startswith("/assets/") and p != "/manifest.webmanifest"]

    def test_log_out_everywhere_leaves_no_page_kept_offline(self):
        self.pi.cli("mark", "--quiet")
        self.log_in()
        self.browser.execute_async_script("const done = arguments[0]; navigator.serviceWorker.ready.then(() => done(true))")
        self.open("/sights")
        self.wait(lambda: self.browser.execute_script("return navigator.serviceWorker.controller !== null"), what="the service worker to control the page")
        self.open("/sights")
        self.wait(lambda: "/sights" in self.kept_pages(), what="the sight log to be kept")
        # When the account logs out everywhere (a lost phone), from this phone
        self.open("/settings")
        self.submit("#logout-everywhere")
        self.assertTrue(self.browser.current_url.startswith(self.pi.url + "/login"))
        # Then the phone keeps none of the account's pages
        self.wait(lambda: self.kept_pages() == [], what="the kept pages to go")
        # And with the Pi out of reach the sight log is not shown
        self.pi.process.terminate()
        self.assertEqual(self.pi.process.wait(timeout=30), 0)
        self.expected_errors = ["WebSocket connection", "ERR_CONNECTION_REFUSED", "Failed to fetch", "503"]
        self.open("/sights")
        self.wait(lambda: "this page was not opened here before" in self.find("body").text, what="the offline page that has nothing kept")
        self.assertEqual(self.found("tr[data-id='1']"), [])

if __name__ == "__main__":
    unittest.main()
