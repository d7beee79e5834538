#!/usr/bin/env python3
"""Writes Sources/MarkTimeSky/ELP2000-82B.txt, the Moon's series that MoonTheory sums.

The source is the lunar solution ELP 2000-82B (Chapront-Touzé & Chapront, constants fitted
to DE200/LE200), as published by the CDS (VizieR catalogue VI/79: files ELP1 to ELP36 and
the notice elp82b.ps). This keeps every term of at least 0.01" in longitude and latitude
and 0.02 km in distance (1,038 of 37,862): against the whole theory that costs at most
0.33" over 1990-2060 (measured at 150 instants).

Each output line is one term of  A * t^p * sin(phase + sum(m_i * arg_i)):
  coordinate (0 longitude ", 1 latitude ", 2 distance km), p, A, phase (degrees),
  then 13 multipliers of D, l', l, F, zeta, Me, V, T, Ma, J, S, U, N.
The main problem's amplitudes carry the notice's corrections of the constants, and its
distance (a cosine series) a phase of 90 degrees.

  Tests/sky/elp-table.py PATH-TO-VI-79 > Sources/MarkTimeSky/ELP2000-82B.txt
"""
import math
import sys

folder = sys.argv[1]
RAD = 648000 / math.pi
# The notice's constants: the Moon's mean motion, the ratio of mean motions and its
# correction, and the fitted corrections of the constants (arcseconds).
W1_RATE = 1732559343.73604
AM, ALFA = 0.074801329518, 0.002571881335
DTASM = 2 * ALFA / (3 * AM)
DELNU, DELE, DELG = 0.55604 / W1_RATE, 0.01789 / RAD, -0.08066 / RAD
DELNP, DELEP = -0.06424 / W1_RATE, -0.12879 / RAD
LIMIT = (0.01, 0.01, 0.02)

print("# ELP 2000-82B (CDS VI/79), terms of at least 0.01\" (0.02 km): written by Tests/sky/elp-table.py")
print("# coordinate power amplitude phase_deg  D l' l F zeta Me V T Ma J S U N")
count = 0
for f in range(1, 37):
    coordinate = (f - 1) % 3
    lines = open(f"{folder}/ELP{f}").read().splitlines()[1:]
    for line in lines:
        if not line.strip():
            continue
        if f <= 3:
            ilu = [int(line[3 * k:3 * k + 3]) for k in range(4)]
            coef = [float(x) for x in line[12:].split()]
            a = coef[0]
            if abs(a) < LIMIT[coordinate]:
                continue
            tgv = coef[1] + DTASM * coef[5]
            if f == 3:
                a -= 2 * a * DELNU / 3
            a += tgv * (DELNP - AM * DELNU) + coef[2] * DELG + coef[3] * DELE + coef[4] * DELEP
            power, phase = 0, (90.0 if coordinate == 2 else 0.0)
            m = ilu + [0] * 9
        elif 10 <= f <= 21:
            ipla = [int(line[3 * k:3 * k + 3]) for k in range(11)]
            phase, a = float(line[34:43]), float(line[44:53])
            if a < LIMIT[coordinate]:
                continue
            power = 1 if 13 <= f <= 15 or 19 <= f <= 21 else 0
            if f <= 15:  # table 1: eight planets, then D, l, F
                m = [ipla[8], 0, ipla[9], ipla[10], 0] + ipla[0:8]
            else:        # table 2: seven planets, then D, l', l, F
                m = ipla[7:11] + [0] + ipla[0:7] + [0]
        else:
            iz = int(line[0:3])
            ilu = [int(line[3 + 3 * k:6 + 3 * k]) for k in range(4)]
            phase, a = float(line[16:25]), float(line[26:35])
            if a < LIMIT[coordinate]:
                continue
            power = 1 if 7 <= f <= 9 or 25 <= f <= 27 else 2 if 34 <= f <= 36 else 0
            m = ilu + [iz] + [0] * 8
        print(coordinate, power, f"{a:.5f}", f"{phase:.5f}", *m)
        count += 1
print(f"# {count} terms", file=sys.stderr)
