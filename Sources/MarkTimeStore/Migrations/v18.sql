-- The chronometer's rate book (#58): a line a day per boot, the monotonic clock's rate
-- against good time and the system clock's error then; the next boot carries time at
-- the last line's rate.
CREATE TABLE rate_book (
    boot_id TEXT NOT NULL,
    day TEXT NOT NULL,
    clock TEXT NOT NULL,
    gain_s_per_day REAL NOT NULL,
    scatter_s_per_day REAL NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('pps', 'system', 'gps', 'signal', 'rtc', 'lunar')),
    span_s REAL NOT NULL,
    samples INTEGER NOT NULL,
    learned_at_ns INTEGER NOT NULL,
    learned_utc_ns INTEGER NOT NULL,
    system_error_s REAL,
    PRIMARY KEY (boot_id, day, clock)
) WITHOUT ROWID;
CREATE INDEX rate_book_learned ON rate_book(learned_utc_ns);
