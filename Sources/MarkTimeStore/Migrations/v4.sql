-- The anchor watch (#5): one row while a watch is set. The daemon applies fixes
-- to it; `anchor ack` and `anchor lift` change it from the command line.
CREATE TABLE anchor_watch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    lat REAL NOT NULL,
    lon REAL NOT NULL,
    radius_m REAL NOT NULL CHECK (radius_m > 0),
    state TEXT NOT NULL CHECK (state IN ('watching', 'alarm', 'stale', 'off')),
    outside INTEGER NOT NULL DEFAULT 0,
    dropped_at_ns INTEGER NOT NULL,
    boot_id TEXT,
    last_fix_mono_ns INTEGER,
    last_fix_utc_ns INTEGER,
    distance_m REAL,
    bearing_deg REAL
);
