-- Negative assertions and the contradictions they take part in (owned by services/reconciler; see its doc.go).

-- A negated claim states that its subject does not (or never did) stand in the predicate's relation to the object
-- ("Alice has never used Zotero"). Negated claims never share a slot with positive ones (their slot_key is
-- prefixed "not:"), so they neither corroborate nor supersede them.
ALTER TABLE claims ADD COLUMN negated boolean NOT NULL DEFAULT false;
CREATE INDEX claims_negated_idx ON claims (workspace_id, subject_key) WHERE negated;

-- Contradiction links: a negated claim and a positive claim of the same subject and slot tier that are about the
-- same thing. A link flags both claims (the query service surfaces them together); it does not change either
-- claim's status. claim_a < claim_b. method says what related them ("negation"), similarity is the cosine of
-- their claim embeddings, decision_id the decision that recorded the link, recorded_at its log time. The
-- rows cascade with their claims, so erasing either claim erases the link.
CREATE TABLE contradictions (
    claim_a      uuid NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    claim_b      uuid NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    subject_key  text NOT NULL,
    method       text NOT NULL,
    similarity   double precision NOT NULL,
    decision_id  uuid NOT NULL,
    recorded_at  timestamptz NOT NULL,
    PRIMARY KEY (claim_a, claim_b),
    CHECK (claim_a < claim_b)
);
CREATE INDEX contradictions_b_idx ON contradictions (claim_b);
