-- Query service: a subject's claims by predicate key, read from the index alone (store.ClaimsByPredicateHead
-- looks for the few claims that may end another's value — "lost", "sold", "moved out" — among every claim of
-- the subjects a search resolves; from the table that was thousands of rows per search).
CREATE INDEX IF NOT EXISTS claims_subject_predicate_idx ON claims (workspace_id, subject_key, predicate_key) INCLUDE (functional, id);
