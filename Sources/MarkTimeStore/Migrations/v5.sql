-- People ashore (#6), each in a canonical tz zone; the selected ones are shown.
CREATE TABLE person (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    zone TEXT NOT NULL,
    selected INTEGER NOT NULL DEFAULT 1,
    created_at_ns INTEGER NOT NULL
);
