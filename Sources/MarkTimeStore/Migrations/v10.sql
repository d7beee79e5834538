-- What made each sight (#16): the button, `marktime mark` or the phone page. Unknown before.
ALTER TABLE sight ADD COLUMN trigger TEXT CHECK (trigger IN ('button', 'cli', 'phone'));
