#!/usr/bin/env python3
"""Writes Tests/sky/moon-reference.txt: the Moon's apparent right ascension and declination
(true equator and equinox of date, geocentric) at 10,000 random instants of TT from 1990 to
2060, from the Swiss Ephemeris (pyswisseph, its built-in Moshier lunar theory, which shares
nothing with marktime's), plus the instants where marktime's old series erred most.

  python3 -m venv /tmp/sky && /tmp/sky/bin/pip install pyswisseph
  /tmp/sky/bin/python Tests/sky/moon-reference.py > Tests/sky/moon-reference.txt
"""
import random
import swisseph as swe

FIRST, END = 2447892.5, 2473824.5   # 1990-01-01 and 2061-01-01, 0h TT
random.seed(2026)
instants = [FIRST + random.random() * (END - FIRST) for _ in range(10_000)]
# 1999-11-25T00:23:12Z, where the old series put GHA 0.224' off (TT = UTC + 64.184 s).
instants.append(2451507.5 + (23 * 60 + 12 + 64.184) / 86400)
print(f"# pyswisseph {swe.version}, Moshier: julian date TT, RA and Dec (degrees), apparent, of date")
for jd in instants:
    (ra, dec, *_), _ = swe.calc(jd, swe.MOON, swe.FLG_MOSEPH | swe.FLG_EQUATORIAL)
    print(f"{jd:.8f} {ra:.7f} {dec:.7f}")
