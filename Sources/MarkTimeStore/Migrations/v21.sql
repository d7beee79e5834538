-- Voice memos (#59): recorded while the button is held after a press, one per sight, kept
-- as FLAC and removed with the sight (ON DELETE CASCADE; GRDB turns foreign keys on).
CREATE TABLE sight_memo (
    sight_id INTEGER PRIMARY KEY REFERENCES sight(id) ON DELETE CASCADE,
    format TEXT NOT NULL CHECK (format IN ('flac')),
    sample_rate INTEGER NOT NULL CHECK (sample_rate > 0),
    frames INTEGER NOT NULL CHECK (frames >= 0),
    cut INTEGER NOT NULL CHECK (cut IN (0, 1)),
    data BLOB NOT NULL,
    created_at_ns INTEGER NOT NULL
);
