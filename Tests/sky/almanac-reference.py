#!/usr/bin/env python3
"""Writes Tests/sky/almanac-reference.txt: apparent geocentric right ascension and
declination (true equator and equinox of date) from the Swiss Ephemeris (pyswisseph, in its
built-in Moshier mode, which shares no code or series with marktime's) for
- the Moon at 10,000 random instants of TT from 1990 to 2060, plus the instant where
  marktime's old series erred most (1999-11-25T00:23:12Z: GHA 0.224' off);
- the Sun, Venus, Mars, Jupiter and Saturn at 1,000 random instants each.

  python3 -m venv /tmp/sky && /tmp/sky/bin/pip install pyswisseph
  /tmp/sky/bin/python Tests/sky/almanac-reference.py > Tests/sky/almanac-reference.txt
"""
import random
import swisseph as swe

FIRST, END = 2447892.5, 2473824.5   # 1990-01-01 and 2061-01-01, 0h TT
random.seed(2026)
bodies = [("Moon", swe.MOON, 10_000), ("Sun", swe.SUN, 1_000), ("Venus", swe.VENUS, 1_000),
          ("Mars", swe.MARS, 1_000), ("Jupiter", swe.JUPITER, 1_000), ("Saturn", swe.SATURN, 1_000)]
print(f"# pyswisseph {swe.version}, Moshier: body, julian date TT, RA and Dec (degrees), apparent, of date")
for name, body, count in bodies:
    instants = [FIRST + random.random() * (END - FIRST) for _ in range(count)]
    if name == "Moon":  # TT = UTC + 64.184 s in 1999
        instants.append(2451507.5 + (23 * 60 + 12 + 64.184) / 86400)
    for jd in instants:
        (ra, dec, *_), _ = swe.calc(jd, body, swe.FLG_MOSEPH | swe.FLG_EQUATORIAL)
        print(f"{name} {jd:.8f} {ra:.7f} {dec:.7f}")
