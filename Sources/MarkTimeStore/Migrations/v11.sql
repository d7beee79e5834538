-- Sharing over MQTT (#17). Messages wait here until the broker acknowledges them.
CREATE TABLE share_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    retain INTEGER NOT NULL,
    kind TEXT NOT NULL,
    created_at_ns INTEGER NOT NULL
);
-- Every OwnTracks device seen on the broker, with its card's name.
CREATE TABLE share_seen (
    topic TEXT PRIMARY KEY,
    name TEXT,
    last_seen_ns INTEGER NOT NULL,
    messages INTEGER NOT NULL DEFAULT 0
);
ALTER TABLE member ADD COLUMN share_topic TEXT;
CREATE UNIQUE INDEX member_share_topic ON member(share_topic) WHERE share_topic IS NOT NULL;
