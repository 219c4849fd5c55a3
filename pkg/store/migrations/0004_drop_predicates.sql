-- Paraphrase merging is decided per subject from the partition's own log (subject_predicates, 0002), so the
-- workspace-wide predicates table of 0001 was never written. Dropping it keeps the schema honest.
DROP TABLE IF EXISTS predicates;
