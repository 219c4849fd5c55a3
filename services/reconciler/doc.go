// Package reconciler is Mneme's write path of record: it consumes the claims stream (MNEME_CLAIMS, one subject
// per partition), resolves contradictions with the TOKI operators and writes the bitemporal projection that the
// query service reads.
//
// # Tables as the reconciler writes them (what the query service may rely on)
//
// Every time stamp below except those called wall clock is log time: the stream time stamp of the claims-stream
// message that caused the row (never now()), so a replay writes identical rows.
//
//   - claims: one row per distinct claim id, immutable (content + provenance). slot_key is the predicate after
//     paraphrase merging (never across two relations canon's alias table tells apart); claims with the same (workspace_id, subject_key, slot_key) compete, shared ones per
//     workspace, private ones per owner_agent (a "slot tier"; tiers never compete with each other). object_key is
//     canon.ObjectKey(object); source_key is the independent-source key, "agent:<id>" (one source per
//     agent: an agent repeating itself in another turn or under another source reference is not independent;
//     projections written before this rule may hold "agent:<id>/turn:…" and "agent:<id>/ref:…" keys, which
//     readers count by their agent); extractor is provenance.extractor; owner_agent =
//     provenance.agent_id (the asserting agent). recorded_at = log time of arrival; partition/stream_seq = its
//     position in MNEME_CLAIMS. negated marks a negative assertion ("Alice has never used Zotero": predicate
//     "has used", object "Zotero"); its slot_key carries the prefix "not:" ("not:has_used"), so negated and
//     positive claims never compete, corroborate or supersede each other — they are related by contradiction
//     links instead (below). screen names the pkg/promptguard rule the claim's subject, predicate, object or
//     text matched at arrival (NULL: none): such a claim is quarantined (below). trust is the claim's source
//     trust from the policy at arrival (1 unless a rule says otherwise).
//   - claim_vectors: one row per claim (append-only, never updated), model and dim with every vector.
//   - claim_versions: the belief history of each claim. The current belief is the row with retired_at IS NULL
//     (exactly one per claim). A change of belief retires the current row (retired_at = log time of the change)
//     and appends version+1 (recorded_at = the same time). status:
//     active — the current value of its tier (accumulating slots have several);
//     superseded — a later claim took over: superseded_by = that claim, valid_to = its valid_from (LWW); a later
//     restatement of the same object also supersedes; a simultaneous or evidence-ranked restatement is
//     superseded by its representative with valid_to NULL;
//     disputed — truly simultaneous contradicting claims (same valid_from, equal or absent sequence), or equal
//     evidence: every side is flagged; surface them together;
//     pending — held by await-confirmation (not yet part of resolution);
//     rejected — outranked by evidence (superseded_by = the winner's representative), by a current claim of a
//     more trusted source, or not confirmed before an await-confirmation timeout whose policy rejects;
//     quarantined — its content carries instructions to a model (claims.screen) and no administrator released
//     it: stored and auditable, but no part of resolution; readers show it only when a request asks.
//     valid_from, subject_key and slot_key are the claim's (the keys for the present's index of versions,
//     migration 0056); decision_id names the decision that produced the version.
//     Reads: "true now" = current rows with status active or disputed; "true at valid time T as believed at
//     transaction time T'" = rows with recorded_at <= T' < coalesce(retired_at, infinity), status active, disputed
//     or superseded, valid_from <= T < coalesce(valid_to, infinity), minus superseded rows with valid_to NULL
//     (duplicates, represented by their representative). The read model of pkg/store implements these reads
//     (store.View, store.GroupSlots; store.CurrentBeliefs, store.BeliefsAt and store.History for tests and tools).
//   - decisions: one row per (message, slot tier) the message changed, plus one per confirmation and timeout,
//     plus one per claim that gained contradiction links (operator "negation"):
//     operator is the pipeline that decided ("lww", "accumulate", "evidence", prefixed "await_confirmation|" when
//     a gate is involved, suffixed "+judge" when the slot consults the judge), policy_version, inputs (the
//     conflict set: the tier's live claims before the message plus the newcomer), winner (the newcomer when it
//     became active, else the claim that outranked it), losers (claims this decision superseded or rejected),
//     outcome (the triggering claim's new status, or confirmed / timeout_accepted / timeout_rejected), reason
//     (operator, slot merging note, and why each changed claim got its status; ids and keys only, never claim
//     content), judge_key (comma-separated keyed judge-log entries consulted), decided_at (log time),
//     partition/stream_seq of the triggering message (a timeout carries its claim's position and its deadline).
//   - supersedes: edge claim_id → superseded_id with the decision that first drew it; never deleted by resolution.
//     The current successor of a claim is claim_versions.superseded_by of its current row.
//   - corroborations: (claim_id, source) for every independent source (agent) asserting the same object in the
//     same tier, the claim's own source included: count(*) per claim_id is its corroboration count, the number of
//     distinct agents. via_claim_id is the first claim of that source with the object (its confidence is that
//     agent's confidence in the content). Two or more sources make a claim "corroborated": readers show it, and
//     a corroborated shared claim newer than the reader's private claim wins over it (store.SharedOverridesPrivate).
//   - subject_aliases: (workspace_id, alias, subject_key): alias is the lower-cased, space-normalized surface form
//     of the subject as shared claims named it (private claims add no aliases: every agent reads this table).
//   - subject_predicates: per (workspace, subject, tier_owner, predicate_key — "not:"-prefixed for negated
//     claims) the slot it joined and the cosine similarity that merged it (NULL when it opened its own slot or
//     took the shared tier's slot of the same key). tier_owner is "" for the shared tier, else the agent whose
//     private tier the row belongs to: merging never crosses tiers (see Resolution). Quarantined claims record
//     no row. Readers use claims.slot_key; the query service reads a claim's own tier's row for its phrase
//     vector.
//   - claim_gates: await-confirmation state per held claim (pending / admitted / timed_out, deadline in log time,
//     resolved_by: no-conflict, second-source:<claim>, confirmation:<agent>, timeout).
//   - confirmations: explicit confirmations (ClaimConfirmedV1), possibly before their claim arrives; releases
//     marks a release from quarantine (set only for an admin key), a row of its own beside an ordinary
//     confirmation by the same agent.
//   - judgements: the judge verdicts this projection applied (claim_a < claim_b, contradicts, judge_key).
//   - contradictions: links between a negated and a positive claim of the same subject and tier about the same
//     thing (claim_a < claim_b, method "negation", similarity = cosine of their claim embeddings, decision_id,
//     recorded_at = log time of the later claim). A link flags both claims and changes neither status; readers
//     show the two together. Rows cascade with their claims (erasure removes them). A table of its own rather
//     than judgements: a judgement is a keyed judge-log verdict that feeds a slot's fold (model and prompt
//     version are part of its key), while a link is a rule-derived flag across slots that feeds no fold; mixing
//     them would make the fold read flags as verdicts and the judge-log purge of an erasure look for keys links
//     do not have. Readers must check that both claims are visible to the caller (a link never crosses tiers,
//     so it never pairs a claim with another agent's private claim, but a reader's time filters still apply).
//   - dead_letters, duplicate_messages: positions of dead-lettered and repeated claims-stream messages.
//   - partition_offsets: the last applied claims-stream sequence per partition (and its log time), written in the
//     same transaction as the rows it produced.
//   - erasures, erasure_parts: the erasure record (kind, scope and scope_agent — the tiers it covered —,
//     target_hash = sha256(workspace NUL target), requested_by, requested_key, requested_at, status, counts of
//     what lay in its scope; never the target in clear) and each partition's part (see erasure.go).
//   - audit_log (pkg/audit): erasures requested and completed, quarantine releases and policy changes, beside
//     the key and workspace actions of pkg/auth; wall clock, not projection state (replays write none). The
//     service relays unpublished entries to the ledger stream (MNEME_RECONCILER_AUDIT_RELAY_INTERVAL).
//
// Private claims: a private claim is only ever in a tier of its owner. Readers must filter claims by
// scope = 'shared' OR owner_agent = <calling agent>, and decisions by owner_agent IS NULL OR owner_agent =
// <calling agent> (a private tier's decisions name its claims); store.View does both in one place. An agent's
// view is its private tier over the shared tier per slot: in a single-valued slot private wins unless the
// shared tier's current claim is newer by belief order (valid time, then source sequence when both have one)
// and corroborated by at least two independent sources — a tie goes to private; an accumulating slot shows both
// tiers' values (store.SharedOverridesPrivate, store.GroupSlots).
//
// # Resolution
//
// For each claim the reconciler finds its slot (its predicate's slot for the subject, or the slot of the most
// similar predicate phrase of the subject at or above MNEME_RECONCILER_PREDICATE_SIMILARITY; decided from the
// store in stream order and noted in the decision), adds it to its tier and folds the whole tier again with the
// pure operators of internal/resolve: quarantine → gates (await-confirmation) → optional judge verdicts →
// source trust → ranker (LWW or evidence-weighted). Slots are found among the predicates the claim's own tier
// may see — a shared claim the shared tier's, a private claim its owner's and the shared ones — so a shared claim
// never lands in a slot a private claim opened, and no decision outside a private tier names its predicates.
//
// A claim whose content pkg/promptguard flags (screen) is quarantined: held out of the fold, of corroboration,
// of aliases, of the predicate table, of the judge (its text is never sent to a model) and of negation links;
// its decision (outcome "quarantined") names the rule and the rule set's version. The screen is a function of
// the content, so a replay quarantines the same claims. A release (a confirmation with release set, from an
// admin key) lets it into resolution with a decision of outcome "released".
//
// Trust (policy.go) ranks before the operator: in a tier, a claim that contradicts a current claim of a more
// trusted source is rejected, one that restates it is represented by it, and each trust level is ranked by
// the operator on its own, most trusted first. With one level (no trust rules) nothing changes. The fold is a function of the set, so LWW's outcome does not depend on arrival order; a
// late older claim is inserted already superseded. The policy (policy.go, MNEME_RECONCILER_POLICY_FILE) picks
// the operators per slot and the gates per claim; its version is in every decision. The optional LLM judge
// (judge.go) writes each verdict to the keyed judge log (KV MNEME_JUDGE) before applying it; replays and
// redeliveries read the log.
//
// # Negation contradictions
//
// A negated claim and a positive claim cannot both be right, but valid time cannot tell which is wrong (the
// never-statement may come first or last), so no operator resolves them. When a claim arrives, negation.go
// tests it against the claims of the other polarity of its subject and tier (same scope; same owner for private
// claims) with the same embedding model: cosine similarity of their claim embeddings at or above
// MNEME_RECONCILER_NEGATION_SIMILARITY and shared content (two content words, or one name capitalized in both
// texts) make a link. The test depends on
// the pair alone, so the links are the same for every arrival order, batching and replay (the belief digest
// includes them). Each claim that gains links gets a decision (operator "negation", outcome "contradicted",
// inputs = the claim and its partners, reason = ids and similarities) in the same transaction, so every link
// is auditable. MNEME_RECONCILER_NEGATION_LINKS=false turns linking off.
//
// # Partition ownership
//
// Each partition has exactly one active owner across replicas. A replica holds, on one dedicated Postgres
// connection, a session advisory lock per owned partition and a member lock that makes it count as live; Postgres
// drops them when the process dies (kill -9 included) or its connection breaks, so partitions are free the moment
// their owner is gone, without lease timeouts or clocks. Each replica takes at most ceil(P/live) partitions and
// releases extras (after finishing the batch in flight) when others join. Alternatives considered: orbit.go
// pcgroups (pinned consumer groups in NATS) would fence the consumer but not the Postgres writes, which is where
// the exactly-once effect must hold; leases in a table need expiry by wall clock. The advisory lock alone is not
// enough either (a process that lost its lock connection may still be mid-batch on a pool connection), hence the
// fence: every batch transaction starts with SELECT stream_seq FROM partition_offsets WHERE partition = $1 FOR
// UPDATE and aborts unless it equals the offset the batch started from. Inside the transaction a
// pg_advisory_xact_lock per (workspace, subject_key) guards the subject at hand-over. The owner reads its
// partition with an ordered consumer from the stored offset + 1: Postgres holds the truth, JetStream acks play no
// part. A batch (up to MNEME_RECONCILER_BATCH_SIZE messages) is applied segment by segment (see Code), then the
// offset advances in the same transaction; decisions are published to mneme.ledger.<ws> after commit (message
// id = decision id).
//
// # Failures
//
// Undecodable or invalid messages are dead-lettered (bus.DeadLetter, stage "reconciler") before the commit that
// moves past them. A batch that fails for a reason other than a transient infrastructure error is re-applied one
// message at a time; a message that keeps failing is dead-lettered after MNEME_RECONCILER_MAX_ATTEMPTS, so a
// partition never stalls. Transient errors (connection loss, serialization failures, bus timeouts) are retried
// without bound: they are not the message's fault.
//
// # Admin
//
// store.Digest is a canonical SHA-256 over the projection (store.BeliefDigest over the current belief only);
// Replay rebuilds the projection from the claims stream and the judge log into an empty database. Erasure (erasure.go) deletes a
// subject's, an agent's or a workspace's content from Postgres and every stream and keeps the record; the
// command carries a scope — the tiers the requesting key may write (agent key: its private tier; curator: also
// the shared tier; admin: all) — and the partition owner erases only within it, rebuilding the touched subjects
// from their surviving messages.
//
// # Code
//
// One transaction per batch (engine.go, applyBatch): the fence, the subject guards, then each segment of
// ordinary messages (the messages between erasure commands, which run alone: erasure.go) through
//
//   - load (load.go): what the segment's decisions read, in a constant number of set-based queries — which of
//     its claims exist and in which tier, confirmations, every tier's predicates of its subjects (loadKnown);
//     then, once decide has assigned the new claims' slots, the gates falling due and every tier touched with
//     its claims' current versions, gates, confirmations, trust and judge verdicts (loadTiers), and the claims
//     negation links test against (loadPolarity). The in-memory state is state.go.
//   - decide (decide.go): every decision of the reconciler, message by message in stream order: slot
//     assignment (assignSlots), then per claim its rows, corroborations, alias, gate, judge verdicts
//     (judge.go, through the verdicts interface: the keyed judge log), the fold (internal/resolve), new belief
//     versions, supersedes edges and the decision (settle), and its negation links (negation.go); per
//     confirmation, release or gate timeout the same fold and decision. It returns store.Changes — each row
//     and each decision built once; the ledger event is derived from the decision row (decisionEvent) — and
//     touches no database, so decide_test.go tests it without one.
//   - write: store.Write (pkg/store/write.go), the typed rows beside their column lists.
//
// then the offset. The projection's reads — the read model every reader uses, the inspection reads and the
// digest — are pkg/store's too.
package reconciler
