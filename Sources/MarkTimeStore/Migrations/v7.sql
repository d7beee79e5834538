-- The day journal (#8): moments, check-ins and photos. A photo's file lives in the
-- media folder beside the store, named by its SHA-256; one row per file.
CREATE TABLE journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('moment', 'checkin', 'photo')),
    time_ns INTEGER NOT NULL,
    text TEXT NOT NULL DEFAULT '',
    lat REAL CHECK (lat BETWEEN -90 AND 90),
    lon REAL CHECK (lon BETWEEN -180 AND 180),
    sha256 TEXT UNIQUE,
    ext TEXT,
    width INTEGER,
    height INTEGER,
    created_at_ns INTEGER NOT NULL
);
CREATE INDEX journal_time ON journal(time_ns);
