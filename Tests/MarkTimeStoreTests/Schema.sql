CREATE INDEX journal_time ON journal(time_ns);
CREATE INDEX login_failure_address ON login_failure(address, at_ns);
CREATE INDEX login_failure_name ON login_failure(name, at_ns);
CREATE UNIQUE INDEX member_share_topic ON member(share_topic) WHERE share_topic IS NOT NULL;
CREATE INDEX place_event_time ON place_event(time_ns);
CREATE UNIQUE INDEX sight_instant ON sight(boot_id, monotonic_ns);
CREATE INDEX sight_utc ON sight(archived_at_ns, utc_ns);
CREATE INDEX task_remind ON task(remind_ns) WHERE reminded_at_ns IS NULL AND done_at_ns IS NULL;
CREATE TABLE account (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    admin INTEGER NOT NULL DEFAULT 0,
    theme TEXT NOT NULL DEFAULT 'day' CHECK (theme IN ('sunlight', 'night', 'day')),
    font_size TEXT NOT NULL DEFAULT 'normal' CHECK (font_size IN ('small', 'normal', 'large')),
    created_at_ns INTEGER NOT NULL
);
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
CREATE TABLE assignment (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    course TEXT NOT NULL REFERENCES course(code) ON DELETE CASCADE ON UPDATE CASCADE,
    title TEXT NOT NULL,
    type TEXT NOT NULL COLLATE NOCASE,
    score REAL,
    out_of REAL NOT NULL CHECK (out_of > 0),
    weight REAL,
    due_ns INTEGER,
    class_average REAL
);
CREATE TABLE clock_sample (
    boot_id TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('pps', 'system', 'gps')),
    monotonic_ns INTEGER NOT NULL,
    utc_ns INTEGER NOT NULL,
    uncertainty_s REAL,
    segment INTEGER NOT NULL,
    PRIMARY KEY (boot_id, source, monotonic_ns)
) WITHOUT ROWID;
CREATE TABLE course (
    code TEXT PRIMARY KEY COLLATE NOCASE,
    name TEXT NOT NULL,
    scale TEXT NOT NULL
);
CREATE TABLE course_weight (
    course TEXT NOT NULL REFERENCES course(code) ON DELETE CASCADE ON UPDATE CASCADE,
    type TEXT NOT NULL COLLATE NOCASE,
    percent REAL NOT NULL CHECK (percent >= 0 AND percent <= 100),
    PRIMARY KEY (course, type)
);
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
, stopped INTEGER NOT NULL DEFAULT 0, status_file TEXT, anchor TEXT);
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
CREATE TABLE input_gap (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    boot_id TEXT NOT NULL,
    from_mono_ns INTEGER NOT NULL,
    to_mono_ns INTEGER NOT NULL,
    from_utc_ns INTEGER,
    to_utc_ns INTEGER,
    UNIQUE (boot_id, to_mono_ns)
);
CREATE TABLE invite (
    code_sha256 TEXT PRIMARY KEY,
    created_by TEXT,
    created_at_ns INTEGER NOT NULL,
    expires_ns INTEGER NOT NULL,
    used_at_ns INTEGER
) WITHOUT ROWID;
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
CREATE TABLE login_failure (
    name TEXT NOT NULL COLLATE NOCASE,
    address TEXT NOT NULL,
    at_ns INTEGER NOT NULL
);
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
, share_topic TEXT);
CREATE TABLE person (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    zone TEXT NOT NULL,
    selected INTEGER NOT NULL DEFAULT 1,
    created_at_ns INTEGER NOT NULL
);
CREATE TABLE place (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    kind TEXT NOT NULL CHECK (kind IN ('home', 'work', 'school', 'harbour', 'anchorage', 'other')),
    lat REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
    lon REAL NOT NULL CHECK (lon BETWEEN -180 AND 180),
    radius_m REAL NOT NULL CHECK (radius_m > 0 AND radius_m <= 100000),
    created_at_ns INTEGER NOT NULL
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
CREATE TABLE share_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    retain INTEGER NOT NULL,
    kind TEXT NOT NULL,
    created_at_ns INTEGER NOT NULL
);
CREATE TABLE share_seen (
    topic TEXT PRIMARY KEY,
    name TEXT,
    last_seen_ns INTEGER NOT NULL,
    messages INTEGER NOT NULL DEFAULT 0
);
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
, provenance TEXT, trigger TEXT CHECK (trigger IN ('button', 'cli', 'phone')));
CREATE TABLE task (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    due_ns INTEGER NOT NULL,
    remind_ns INTEGER,
    reminded_at_ns INTEGER,
    reminded_late INTEGER NOT NULL DEFAULT 0,
    done_at_ns INTEGER,
    course TEXT,
    created_at_ns INTEGER NOT NULL,
    CHECK (remind_ns IS NULL OR remind_ns <= due_ns)
);
CREATE TABLE web_session (
    token_sha256 TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at_ns INTEGER NOT NULL,
    last_seen_ns INTEGER NOT NULL
) WITHOUT ROWID;
