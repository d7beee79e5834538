-- Tasks with reminders (#7): the daemon sets reminded_at once, when the chime plays.
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
CREATE INDEX task_remind ON task(remind_ns) WHERE reminded_at_ns IS NULL AND done_at_ns IS NULL;
-- Courses, the weights of their assignment types, and assignments (#7).
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
