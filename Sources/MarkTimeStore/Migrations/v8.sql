-- The daemon core (#13). Where each stamp came from: the clock samples, as JSON.
ALTER TABLE sight ADD COLUMN provenance TEXT;
-- The boot's clock track: the better sources' samples, thinned, saved in batches.
CREATE TABLE clock_sample (
    boot_id TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('pps', 'system', 'gps')),
    monotonic_ns INTEGER NOT NULL,
    utc_ns INTEGER NOT NULL,
    uncertainty_s REAL,
    segment INTEGER NOT NULL,
    PRIMARY KEY (boot_id, source, monotonic_ns)
) WITHOUT ROWID;
-- Windows in which the kernel dropped input events (SYN_DROPPED): presses may be lost.
CREATE TABLE input_gap (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    boot_id TEXT NOT NULL,
    from_mono_ns INTEGER NOT NULL,
    to_mono_ns INTEGER NOT NULL,
    from_utc_ns INTEGER,
    to_utc_ns INTEGER,
    UNIQUE (boot_id, to_mono_ns)
);
-- The live status moved to a file in the runtime folder; the row says where.
ALTER TABLE daemon_status ADD COLUMN status_file TEXT;
