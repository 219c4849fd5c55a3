package reconciler

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme/services/reconciler/internal/resolve"
)

// Load: the reads a segment's decisions need, done up front with a few set-based queries so that a segment
// costs a constant number of round trips rather than several per message. Slots are decided between the two
// phases (decide.go, assignSlots), because tiers are keyed by slot.

// loadKnown reads what slot assignment needs: which of the segment's claims (and confirmation targets) are
// already stored and in which tier, their explicit confirmations, and every tier's predicates of the segment's
// subjects.
func (st *state) loadKnown(ctx context.Context, tx pgx.Tx, items []item) error {
	var ids []string
	subjects := map[subjKey]bool{}
	for _, it := range items {
		if it.dead != "" {
			continue
		}
		switch it.kind {
		case kindClaim:
			ids = append(ids, it.claim.ClaimID)
			subjects[subjKey{it.claim.Workspace, it.claim.SubjectKey}] = true
		case kindConfirm:
			ids = append(ids, it.confirm.ClaimID)
		}
	}
	if len(ids) > 0 {
		rows, err := tx.Query(ctx, `SELECT id::text, workspace_id, subject_key, slot_key, scope, owner_agent FROM claims WHERE id = ANY($1::uuid[])`, ids)
		if err != nil {
			return fmt.Errorf("reconciler: look up claims: %w", err)
		}
		for rows.Next() {
			var id, ws, subject, slot, scope, owner string
			if err := rows.Scan(&id, &ws, &subject, &slot, &scope, &owner); err != nil {
				rows.Close()
				return err
			}
			st.existing[id] = true
			st.claimTier[id] = tierOf(ws, subject, slot, scope, owner)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("reconciler: look up claims: %w", err)
		}
		rows, err = tx.Query(ctx, `SELECT claim_id::text, bool_or(releases) FROM confirmations WHERE claim_id = ANY($1::uuid[]) GROUP BY claim_id`, ids)
		if err != nil {
			return fmt.Errorf("reconciler: look up confirmations: %w", err)
		}
		for rows.Next() {
			var id string
			var releases bool
			if err := rows.Scan(&id, &releases); err != nil {
				rows.Close()
				return err
			}
			st.confirmed[id] = true
			st.released[id] = st.released[id] || releases
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("reconciler: look up confirmations: %w", err)
		}
	}
	return st.loadPredicates(ctx, tx, subjects)
}

func (st *state) loadPredicates(ctx context.Context, tx pgx.Tx, subjects map[subjKey]bool) error {
	if len(subjects) == 0 {
		return nil
	}
	var wss, subs []string
	for k := range subjects {
		wss = append(wss, k.ws)
		subs = append(subs, k.subject)
		st.preds[k] = nil
	}
	rows, err := tx.Query(ctx, `SELECT p.workspace_id, p.subject_key, p.tier_owner, p.predicate_key, p.slot_key, p.model, p.embedding
		FROM subject_predicates p JOIN unnest($1::text[], $2::text[]) AS k(ws, subject)
		  ON p.workspace_id = k.ws AND p.subject_key = k.subject
		ORDER BY p.tier_owner COLLATE "C", p.predicate_key COLLATE "C"`, wss, subs)
	if err != nil {
		return fmt.Errorf("reconciler: load predicates: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ws, subject string
		p := &predRow{}
		var emb *pgvector.Vector
		if err := rows.Scan(&ws, &subject, &p.tierOwner, &p.predicateKey, &p.slotKey, &p.model, &emb); err != nil {
			return fmt.Errorf("reconciler: load predicates: %w", err)
		}
		if emb != nil {
			p.embedding = emb.Slice()
		}
		k := subjKey{ws, subject}
		st.preds[k] = append(st.preds[k], p)
	}
	return rows.Err()
}

// loadTiers reads the partition's pending gates that fall due by until, then every tier in need (and the tiers
// of those gates): each claim with its current belief version, gate, confirmations and trust, and the judge
// verdicts of tiers whose policy consults the judge.
func (st *state) loadTiers(ctx context.Context, tx pgx.Tx, partition int, need map[tierKey]bool, until time.Time, policy *Policy) error {
	rows, err := tx.Query(ctx, `SELECT g.claim_id::text, g.deadline, c.workspace_id, c.subject_key, c.slot_key, c.scope, c.owner_agent
		FROM claim_gates g JOIN claims c ON c.id = g.claim_id
		WHERE g.partition = $1 AND g.state = 'pending' AND g.deadline <= $2`, partition, until)
	if err != nil {
		return fmt.Errorf("reconciler: due gates: %w", err)
	}
	for rows.Next() {
		var id, ws, subject, slot, scope, owner string
		var deadline time.Time
		if err := rows.Scan(&id, &deadline, &ws, &subject, &slot, &scope, &owner); err != nil {
			rows.Close()
			return err
		}
		k := tierOf(ws, subject, slot, scope, owner)
		need[k] = true
		st.claimTier[id] = k
		heap.Push(&st.due, dueGate{deadline: deadline.UTC(), claimID: id})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reconciler: due gates: %w", err)
	}
	var wss, subs, slots, scopes, owners []string
	for k := range need {
		if _, ok := st.tiers[k]; ok {
			continue
		}
		st.tiers[k] = newTier(k)
		wss, subs, slots = append(wss, k.ws), append(subs, k.subject), append(slots, k.slot)
		scopes, owners = append(scopes, k.scope), append(owners, k.owner)
	}
	if len(wss) == 0 {
		return nil
	}
	rows, err = tx.Query(ctx, `SELECT c.workspace_id, c.subject_key, c.slot_key, c.scope, c.owner_agent,
			c.id::text, c.object_key, c.source_key, c.predicate_key, c.extractor, c.subject, c.predicate, c.object, c.text,
			c.valid_from, c.sequence, c.confidence, c.functional, c.stream_seq,
			v.version, v.status, v.valid_to, coalesce(v.superseded_by::text, ''),
			g.state, g.deadline, g.on_timeout, g.resolved_by,
			EXISTS (SELECT 1 FROM confirmations f WHERE f.claim_id = c.id),
			coalesce(c.screen, ''), c.trust, EXISTS (SELECT 1 FROM confirmations f WHERE f.claim_id = c.id AND f.releases)
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS k(ws, subject, slot, scope, owner)
		JOIN claims c ON c.workspace_id = k.ws AND c.subject_key = k.subject AND c.slot_key = k.slot AND c.scope = k.scope
		     AND (k.scope = 'shared' OR c.owner_agent = k.owner)
		JOIN claim_versions v ON v.claim_id = c.id AND v.retired_at IS NULL
		LEFT JOIN claim_gates g ON g.claim_id = c.id`, wss, subs, slots, scopes, owners)
	if err != nil {
		return fmt.Errorf("reconciler: load tiers: %w", err)
	}
	var judgeIDs []string
	for rows.Next() {
		var ws, subject, slot, scope, owner, status string
		c := &tclaim{newRow: -1}
		var gState, gOnTimeout, gResolved *string
		var gDeadline *time.Time
		if err := rows.Scan(&ws, &subject, &slot, &scope, &owner,
			&c.id, &c.objectKey, &c.source, &c.predicateKey, &c.extractor, &c.subject, &c.predicate, &c.object, &c.text,
			&c.validFrom, &c.seq, &c.confidence, &c.functional, &c.streamSeq,
			&c.version, &status, &c.validTo, &c.supersededBy,
			&gState, &gDeadline, &gOnTimeout, &gResolved, &c.confirmed, &c.screen, &c.trust, &c.released); err != nil {
			rows.Close()
			return fmt.Errorf("reconciler: load tiers: %w", err)
		}
		c.agent = owner
		c.validFrom = c.validFrom.UTC()
		if c.validTo != nil {
			t := c.validTo.UTC()
			c.validTo = &t
		}
		c.status = resolve.Status(status)
		if gState != nil {
			c.gate = &gateRow{state: *gState, deadline: gDeadline, onTimeout: deref(gOnTimeout), resolvedBy: deref(gResolved)}
			if gDeadline != nil {
				d := gDeadline.UTC()
				c.gate.deadline = &d
			}
		}
		k := tierOf(ws, subject, slot, scope, owner)
		t := st.tiers[k]
		t.claims = append(t.claims, c) // sorted below
		t.byID[c.id] = c
		st.claimTier[c.id] = k
		if policy.forSlot(slot, scope).judge != judgeNone {
			judgeIDs = append(judgeIDs, c.id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reconciler: load tiers: %w", err)
	}
	for _, t := range st.tiers {
		slices.SortFunc(t.claims, func(a, b *tclaim) int { return cmp.Compare(a.id, b.id) })
	}
	if len(judgeIDs) == 0 {
		return nil
	}
	jrows, err := tx.Query(ctx, `SELECT claim_a::text, claim_b::text, contradicts FROM judgements WHERE claim_a = ANY($1::uuid[]) OR claim_b = ANY($1::uuid[])`, judgeIDs)
	if err != nil {
		return fmt.Errorf("reconciler: load judgements: %w", err)
	}
	defer jrows.Close()
	for jrows.Next() {
		var a, b string
		var contra bool
		if err := jrows.Scan(&a, &b, &contra); err != nil {
			return err
		}
		if k, ok := st.claimTier[a]; ok {
			st.tiers[k].verdicts[resolve.PairOf(a, b)] = contra
		}
	}
	return jrows.Err()
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// loadPolarity reads, for the subjects the segment's new claims are about, the claims a newcomer of the other
// polarity may contradict: every negated claim of the subject, and its positive claims when the segment brings
// a negated claim of it.
func (st *state) loadPolarity(ctx context.Context, tx pgx.Tx, items []item, slots []slotted) error {
	subjects := map[subjKey]bool{}
	for i, it := range items {
		if it.dead != "" || it.kind != kindClaim || slots[i].duplicate {
			continue
		}
		k := subjKey{it.claim.Workspace, it.claim.SubjectKey}
		if _, ok := st.polar[k]; !ok {
			st.polar[k] = &polarSet{}
		}
		subjects[k] = subjects[k] || it.claim.Negated
	}
	if len(subjects) == 0 {
		return nil
	}
	var wss, subs, allWS, allSubs []string
	for k, neg := range subjects {
		wss, subs = append(wss, k.ws), append(subs, k.subject)
		if neg {
			allWS, allSubs = append(allWS, k.ws), append(allSubs, k.subject)
			st.polar[k].positives = true
		}
	}
	const cols = `SELECT c.id::text, c.workspace_id, c.subject_key, c.scope, c.owner_agent, c.negated, c.text, c.subject,
		v.model, v.embedding FROM claims c JOIN claim_vectors v ON v.claim_id = c.id`
	load := func(sql string, args ...any) error {
		rows, err := tx.Query(ctx, sql, args...)
		if err != nil {
			return fmt.Errorf("reconciler: load claims for negation links: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id, ws, subject, scope, owner, text, subjectName, model string
			var negated bool
			var vec pgvector.Vector
			if err := rows.Scan(&id, &ws, &subject, &scope, &owner, &negated, &text, &subjectName, &model, &vec); err != nil {
				return fmt.Errorf("reconciler: load claims for negation links: %w", err)
			}
			p := newPolarClaim(id, scope, owner, model, negated, vec.Slice(), text, subjectName)
			ps := st.polar[subjKey{ws, subject}]
			ps.claims = append(ps.claims, p)
		}
		return rows.Err()
	}
	if err := load(cols+` JOIN unnest($1::text[], $2::text[]) AS k(ws, subject) ON c.workspace_id = k.ws AND c.subject_key = k.subject
		WHERE c.negated ORDER BY c.id`, wss, subs); err != nil {
		return err
	}
	if len(allWS) > 0 {
		if err := load(cols+` JOIN unnest($1::text[], $2::text[]) AS k(ws, subject) ON c.workspace_id = k.ws AND c.subject_key = k.subject
			WHERE NOT c.negated ORDER BY c.id`, allWS, allSubs); err != nil {
			return err
		}
	}
	return nil
}
