-- The phone page's accounts (#16). Passwords as bcrypt hashes only.
CREATE TABLE account (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    admin INTEGER NOT NULL DEFAULT 0,
    theme TEXT NOT NULL DEFAULT 'day' CHECK (theme IN ('sunlight', 'night', 'day')),
    font_size TEXT NOT NULL DEFAULT 'normal' CHECK (font_size IN ('small', 'normal', 'large')),
    created_at_ns INTEGER NOT NULL
);
-- Sessions by the SHA-256 of their token: the cookie's value never rests in the store.
CREATE TABLE web_session (
    token_sha256 TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at_ns INTEGER NOT NULL,
    last_seen_ns INTEGER NOT NULL
) WITHOUT ROWID;
-- One-time invite codes, by their SHA-256.
CREATE TABLE invite (
    code_sha256 TEXT PRIMARY KEY,
    created_by TEXT,
    created_at_ns INTEGER NOT NULL,
    expires_ns INTEGER NOT NULL,
    used_at_ns INTEGER
) WITHOUT ROWID;
-- Failed logins, for the lockout: by name and by address.
CREATE TABLE login_failure (
    name TEXT NOT NULL COLLATE NOCASE,
    address TEXT NOT NULL,
    at_ns INTEGER NOT NULL
);
CREATE INDEX login_failure_name ON login_failure(name, at_ns);
CREATE INDEX login_failure_address ON login_failure(address, at_ns);
