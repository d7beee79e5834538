CREATE TABLE sight (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    boot_id TEXT NOT NULL,
    monotonic_ns INTEGER NOT NULL,
    utc_ns INTEGER NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('pps', 'system', 'gps', 'unsynced')),
    uncertainty_s REAL,
    original_utc_ns INTEGER,
    original_source TEXT CHECK (original_source IN ('pps', 'system', 'gps', 'unsynced')),
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
    archived_at_ns INTEGER
);
-- One key-down is one sight, however often its insert is retried.
CREATE UNIQUE INDEX sight_instant ON sight(boot_id, monotonic_ns);
CREATE INDEX sight_utc ON sight(archived_at_ns, utc_ns);

-- The daemon's published state: one row, so `marktime status` needs no IPC.
CREATE TABLE daemon_status (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    pid INTEGER NOT NULL,
    boot_id TEXT NOT NULL,
    started_mono_ns INTEGER NOT NULL,
    heartbeat_mono_ns INTEGER NOT NULL,
    clock_source TEXT,
    clock_mono_ns INTEGER,
    clock_utc_ns INTEGER,
    clock_uncertainty_s REAL,
    fix_mode INTEGER,
    fix_lat REAL,
    fix_lon REAL,
    fix_eph_m REAL,
    fix_time_ns INTEGER,
    fix_mono_ns INTEGER,
    gpsd TEXT,
    button_device TEXT,
    button_state TEXT,
    sound_state TEXT
);
