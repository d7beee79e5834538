#!/usr/bin/env python3
"""Writes Tests/sky/lunar-reference.txt: lunar distances as a sextant would measure them,
made from the Swiss Ephemeris (pyswisseph, built-in Moshier mode: it shares no code or series
with marktime's), for LunarReferenceTests to solve for the time.

For each of 300 random instants (UT 1995-2024, inside the measured ΔT table) and places (an
observer on the WGS 84 ellipsoid, swe.set_topo), with the Moon and the Sun or a planet both
20° or more above the horizon and 15° to 130° apart:
- topocentric apparent places of both (FLG_TOPOCTR), to altitude and azimuth (swe.azalt,
  unrefracted);
- the Moon's limb point toward the other body (near) or away from it (far), its semi-diameter
  from the topocentric distance and a radius of 1737.4 km; for the Sun its near limb, from a
  radius of 696,000 km; a planet's centre;
- each limb point raised by refraction at 10 °C and 1010 hPa, by the Nautical Almanac's
  formula (the one marktime states; Bennett's with the almanac's constants), so that only the
  ephemeris and the geometry are compared;
- the angle between the two refracted points: the distance, degrees; and the apparent
  altitudes of the Moon's lower limb and of the other body's lower limb (the Sun) or centre.

  python3 -m venv /tmp/sky && /tmp/sky/bin/pip install pyswisseph
  /tmp/sky/bin/python Tests/sky/lunar-reference.py > Tests/sky/lunar-reference.txt
"""
import math
import random
import swisseph as swe

FIRST, END = 2449718.5, 2460676.5  # 1995-01-01 and 2025-01-01, 0h UT
AU_KM = 149_597_870.7
MOON_KM, SUN_KM = 1737.4, 696_000.0
BODIES = [("Sun", swe.SUN), ("Venus", swe.VENUS), ("Mars", swe.MARS), ("Jupiter", swe.JUPITER), ("Saturn", swe.SATURN)]
random.seed(1761)


def refraction(h):
    """Degrees of refraction at apparent altitude h (degrees), 10 °C, 1010 hPa."""
    r0 = 0.0167 / math.tan(math.radians(h + 7.32 / (h + 4.32)))
    return r0 * 0.28 * 1010 / (10 + 273)


def apparent(t):
    h = t
    for _ in range(8):
        h = t + refraction(h)
    return h


def vector(alt, az):
    a, z = math.radians(alt), math.radians(az)
    return (math.cos(a) * math.cos(z), math.cos(a) * math.sin(z), math.sin(a))


def altaz(v):
    n = math.sqrt(sum(x * x for x in v))
    return math.degrees(math.asin(v[2] / n)), math.degrees(math.atan2(v[1], v[0]))


def angle(u, v):
    c = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    return math.degrees(math.atan2(math.sqrt(sum(x * x for x in c)), sum(a * b for a, b in zip(u, v))))


def toward(u, v, degrees):
    """The point `degrees` from u along the great circle to v (negative: away from v)."""
    d = math.radians(angle(u, v))
    t = math.radians(degrees)
    s = math.sin(d)
    return tuple((math.sin(d - t) * a + math.sin(t) * b) / s for a, b in zip(u, v))


def seen(jd, body, geopos):
    swe.set_topo(*geopos)
    (ra, dec, dist, *_), _ = swe.calc_ut(jd, body, swe.FLG_MOSEPH | swe.FLG_EQUATORIAL | swe.FLG_TOPOCTR)
    az, alt, _ = swe.azalt(jd, swe.EQU2HOR, geopos, 0, 0, (ra, dec, dist))
    return alt, (az + 180) % 360, dist * AU_KM  # swisseph's azimuth runs from the south


print(f"# pyswisseph {swe.version}, Moshier: body limb utc(ISO) lat lon distance_deg moon_ll_alt body_alt body_limb")
made = 0
while made < 300:
    jd = FIRST + random.random() * (END - FIRST)
    name, body = random.choice(BODIES)
    geopos = (random.uniform(-180, 180), math.degrees(math.asin(random.uniform(-0.9, 0.9))), 0.0)
    malt, maz, mkm = seen(jd, swe.MOON, geopos)
    balt, baz, bkm = seen(jd, body, geopos)
    mv, bv = vector(malt, maz), vector(balt, baz)
    centres = angle(mv, bv)
    if malt < 20 or balt < 20 or not 15 <= centres <= 130:
        continue
    limb = random.choice(["near", "far"])
    msd = math.degrees(math.asin(MOON_KM / mkm))
    bsd = math.degrees(math.asin(SUN_KM / bkm)) if name == "Sun" else 0.0
    mpoint = toward(mv, bv, msd if limb == "near" else -msd)
    bpoint = toward(bv, mv, bsd) if bsd else bv
    refracted = []
    for p in (mpoint, bpoint):
        alt, az = altaz(p)
        refracted.append(vector(apparent(alt), az))
    distance = angle(*refracted)
    moon_ll = apparent(malt - msd)
    body_alt = apparent(balt - bsd)
    y, m, d, hours = swe.revjul(jd)
    seconds = round(hours * 3600, 3)
    hh, rest = divmod(seconds, 3600)
    mm, ss = divmod(rest, 60)
    utc = f"{y:04d}-{m:02d}-{d:02d}T{int(hh):02d}:{int(mm):02d}:{ss:06.3f}Z"
    print(f"{name} {limb} {utc} {geopos[1]:.5f} {geopos[0]:.5f} {distance:.7f} {moon_ll:.6f} {body_alt:.6f} {'lower' if bsd else 'center'}")
    made += 1
