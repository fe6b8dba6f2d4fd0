-- MySQL only (wider text columns); SQLite TEXT has no length limit. The
-- version exists so both dialects migrate in step.
SELECT 1;
