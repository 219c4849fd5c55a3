-- Poisoning defences and tier-safe predicate merging (owned by services/reconciler; see its doc.go).

-- quarantined: the claim's text carries instructions aimed at a model (pkg/promptguard). It is stored and
-- auditable but takes no part in resolution and reaches no reader unless a request asks for it.
ALTER TABLE claim_versions DROP CONSTRAINT claim_versions_status_check;
ALTER TABLE claim_versions ADD CONSTRAINT claim_versions_status_check
    CHECK (status IN ('active', 'superseded', 'disputed', 'pending', 'retracted', 'rejected', 'quarantined'));

-- screen names the rule that flagged the claim's content at arrival (NULL: none); a function of the content, so
-- a replay flags the same claims. trust is the claim's source trust from the resolution policy at arrival
-- (1 unless a rule says otherwise): a claim never outranks a claim of higher trust.
ALTER TABLE claims ADD COLUMN screen text;
ALTER TABLE claims ADD COLUMN trust real NOT NULL DEFAULT 1;

-- An explicit confirmation by an administrative key may also release its claim from quarantine. A release is
-- its own message (and row) beside an ordinary confirmation by the same agent.
ALTER TABLE confirmations ADD COLUMN releases boolean NOT NULL DEFAULT false;
ALTER TABLE confirmations DROP CONSTRAINT confirmations_pkey;
ALTER TABLE confirmations ADD PRIMARY KEY (claim_id, agent_id, releases);

-- Paraphrase merging never crosses tiers: a predicate row belongs to the shared tier (tier_owner '') or to one
-- agent's private tier (tier_owner = that agent), and a claim merges only into slots its own tier could see
-- (shared claims: shared predicates; private claims: the owner's private predicates and the shared ones).
-- Existing rows take the tier of the claim that introduced them.
ALTER TABLE subject_predicates ADD COLUMN tier_owner text NOT NULL DEFAULT '';
UPDATE subject_predicates p SET tier_owner = c.owner_agent
    FROM claims c WHERE c.id = p.first_claim AND c.scope = 'private';
ALTER TABLE subject_predicates DROP CONSTRAINT subject_predicates_pkey;
ALTER TABLE subject_predicates ADD PRIMARY KEY (workspace_id, subject_key, tier_owner, predicate_key);
