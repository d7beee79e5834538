-- The chronometer's sources (#58): a time signal's tick pressed by hand ('signal'), and,
-- reserved for what follows, the RTC read at a boot ('rtc') and a lunar distance
-- ('lunar'). SQLite cannot change a CHECK in place: each table is rebuilt with the wider
-- one and its rows copied, ids and the sight ids' sequence kept.
CREATE TABLE sight_v16 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    boot_id TEXT NOT NULL,
    monotonic_ns INTEGER NOT NULL,
    utc_ns INTEGER NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('pps', 'system', 'gps', 'signal', 'rtc', 'lunar', 'unsynced')),
    uncertainty_s REAL,
    original_utc_ns INTEGER,
    original_source TEXT CHECK (original_source IN ('pps', 'system', 'gps', 'signal', 'rtc', 'lunar', 'unsynced')),
    original_uncertainty_s REAL,
    corrected_at_ns INTEGER,
    gps_lat REAL CHECK (gps_lat BETWEEN -90 AND 90),
    gps_lon REAL CHECK (gps_lon BETWEEN -180 AND 180),
    fix_mode INTEGER,
    fix_age_s REAL,
    body TEXT,
    limb TEXT CHECK (limb IN ('lower', 'center', 'upper')),
    hs_deg REAL,
    ie_arcmin REAL,
    eye_height_m REAL,
    temperature_c REAL,
    pressure_hpa REAL,
    dr_lat REAL CHECK (dr_lat BETWEEN -90 AND 90),
    dr_lon REAL CHECK (dr_lon BETWEEN -180 AND 180),
    note TEXT,
    created_at_ns INTEGER NOT NULL,
    edited_at_ns INTEGER,
    archived_at_ns INTEGER,
    provenance TEXT,
    trigger TEXT CHECK (trigger IN ('button', 'cli', 'phone'))
);
INSERT INTO sight_v16 (id, boot_id, monotonic_ns, utc_ns, source, uncertainty_s, original_utc_ns, original_source,
                       original_uncertainty_s, corrected_at_ns, gps_lat, gps_lon, fix_mode, fix_age_s, body, limb, hs_deg,
                       ie_arcmin, eye_height_m, temperature_c, pressure_hpa, dr_lat, dr_lon, note, created_at_ns,
                       edited_at_ns, archived_at_ns, provenance, trigger)
SELECT id, boot_id, monotonic_ns, utc_ns, source, uncertainty_s, original_utc_ns, original_source,
       original_uncertainty_s, corrected_at_ns, gps_lat, gps_lon, fix_mode, fix_age_s, body, limb, hs_deg,
       ie_arcmin, eye_height_m, temperature_c, pressure_hpa, dr_lat, dr_lon, note, created_at_ns,
       edited_at_ns, archived_at_ns, provenance, trigger
FROM sight;
-- A removed sight's id is never used again: the sequence goes on from the old table's.
UPDATE sqlite_sequence SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'sight'), 0))
WHERE name = 'sight_v16';
INSERT INTO sqlite_sequence (name, seq)
SELECT 'sight_v16', seq FROM sqlite_sequence WHERE name = 'sight'
AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'sight_v16');
DROP TABLE sight;
ALTER TABLE sight_v16 RENAME TO sight;
CREATE UNIQUE INDEX sight_instant ON sight(boot_id, monotonic_ns);
CREATE INDEX sight_utc ON sight(archived_at_ns, utc_ns);

CREATE TABLE clock_sample_v16 (
    boot_id TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('pps', 'system', 'gps', 'signal', 'rtc', 'lunar')),
    monotonic_ns INTEGER NOT NULL,
    utc_ns INTEGER NOT NULL,
    uncertainty_s REAL,
    segment INTEGER NOT NULL,
    PRIMARY KEY (boot_id, source, monotonic_ns)
) WITHOUT ROWID;
INSERT INTO clock_sample_v16 (boot_id, source, monotonic_ns, utc_ns, uncertainty_s, segment)
SELECT boot_id, source, monotonic_ns, utc_ns, uncertainty_s, segment FROM clock_sample;
DROP TABLE clock_sample;
ALTER TABLE clock_sample_v16 RENAME TO clock_sample;
