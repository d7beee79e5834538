-- Places and their geofences (#5). Names are unique whatever their case.
CREATE TABLE place (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    kind TEXT NOT NULL CHECK (kind IN ('home', 'work', 'school', 'harbour', 'anchorage', 'other')),
    lat REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
    lon REAL NOT NULL CHECK (lon BETWEEN -180 AND 180),
    radius_m REAL NOT NULL CHECK (radius_m > 0 AND radius_m <= 100000),
    created_at_ns INTEGER NOT NULL
);
-- Crew or family; each carries its geofence state, so reports survive restarts.
CREATE TABLE member (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    color TEXT NOT NULL,
    is_me INTEGER NOT NULL DEFAULT 0,
    place TEXT,
    since_ns INTEGER,
    candidate TEXT,
    streak INTEGER NOT NULL DEFAULT 0,
    lat REAL,
    lon REAL,
    reported_at_ns INTEGER
);
CREATE TABLE place_event (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member TEXT NOT NULL,
    place TEXT NOT NULL,
    event TEXT NOT NULL CHECK (event IN ('enter', 'leave')),
    time_ns INTEGER NOT NULL,
    lat REAL NOT NULL,
    lon REAL NOT NULL
);
CREATE INDEX place_event_time ON place_event(time_ns);
