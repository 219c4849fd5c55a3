-- Query service: the endings read (store.ClaimsByPredicateHead) wants only the claims valid from a bound per
-- subject on, and a claim's valid_from is its belief versions' (the reconciler never changes it). With the
-- bound in the index, the claims before it are left out before any belief version is looked up: in a grown
-- loadbench workspace a search probed the versions of about 190 claims of the common verbs and kinds to keep
-- some 20.
DROP INDEX IF EXISTS claims_subject_predicate_idx;
CREATE INDEX claims_subject_predicate_idx ON claims (workspace_id, subject_key, predicate_key) INCLUDE (functional, id, valid_from);
