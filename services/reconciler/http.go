package reconciler

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/audit"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/store"
)

// maxErasureBody bounds the erasure request body.
const maxErasureBody = 4096

// handleConfirm publishes a ClaimConfirmedV1 for a claim the caller can see. Confirming twice as the same
// agent has one effect (the event id is derived from workspace, claim and agent).
func (s *Service) handleConfirm(w http.ResponseWriter, r *http.Request) { s.confirm(w, r, false) }

// handleRelease releases a quarantined claim the caller can see (its content was flagged by promptguard and a
// reviewer decided it is harmless): an admin key only, recorded in the audit log. The release travels as a
// confirmation with release set, so the reconciler applies it in order with the claim's partition.
func (s *Service) handleRelease(w http.ResponseWriter, r *http.Request) { s.confirm(w, r, true) }

func (s *Service) confirm(w http.ResponseWriter, r *http.Request, release bool) {
	ws, claimID := r.PathValue("ws"), r.PathValue("id")
	id, err := s.auth.Identify(r, ws, false)
	if err != nil {
		auth.WriteError(w, err)
		return
	}
	if uuid.Validate(claimID) != nil {
		api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "id", "claim id is not a UUID")
		return
	}
	if release && !id.Admin() {
		api.WriteError(w, http.StatusForbidden, api.CodeForbidden, "Authorization", "releasing a claim from quarantine needs an admin key")
		return
	}
	place, screen, err := store.ClaimPlaceIn(r.Context(), s.deps.DB, ws, claimID)
	subject := place.SubjectKey
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && place.Scope == string(event.ScopePrivate) && place.OwnerAgent != id.Agent) {
		// A private claim of another agent is as unknown as a missing one.
		api.WriteError(w, http.StatusNotFound, api.CodeNotFound, "id", "no such claim in this workspace (it may not be reconciled yet)")
		return
	}
	if err != nil {
		s.log.Error("reconciler: confirm: look up claim", "err", err)
		api.WriteError(w, http.StatusServiceUnavailable, api.CodeUnavailable, "", "the store is unavailable; retry")
		return
	}
	if release && screen == "" {
		api.WriteError(w, http.StatusConflict, api.CodeInvalid, "id", "the claim is not quarantined")
		return
	}
	p := bus.PartitionOf(ws, subject, s.cfg.Partitions)
	ev := event.ClaimConfirmedV1{Workspace: ws, ClaimID: claimID, SubjectKey: subject, AgentID: id.Agent, ConfirmedAt: time.Now().UTC(), Partition: p, Release: release}
	kind := "confirm"
	if release {
		kind = "release"
	}
	evID := event.DeterministicID(kind, ws, claimID, id.Agent)
	env, err := event.New(event.TypeClaimConfirmed, evID, "mneme/reconciler", ws, ev.ConfirmedAt, ev)
	if err != nil {
		api.WriteError(w, http.StatusInternalServerError, api.CodeInternal, "", "internal error")
		return
	}
	env.Subject = claimID
	if release {
		if _, err := audit.Record(r.Context(), s.deps.DB, audit.Entry{Workspace: ws, Action: event.AuditQuarantineReleased, Actor: id.Agent,
			KeyID: id.KeyID, Details: map[string]any{"claim_id": claimID, "rule": screen}}); err != nil {
			s.log.Error("reconciler: release: audit", "err", err)
			api.WriteError(w, http.StatusServiceUnavailable, api.CodeUnavailable, "", "the store is unavailable; retry")
			return
		}
	}
	if _, err := bus.PublishEvent(r.Context(), s.deps.JS, bus.ClaimsSubject(p), env); err != nil {
		s.log.Error("reconciler: confirm: publish", "err", err)
		api.WriteError(w, http.StatusServiceUnavailable, api.CodeUnavailable, "", "the bus is unavailable; retry")
		return
	}
	api.WriteJSON(w, http.StatusAccepted, api.ConfirmResponse{Status: "accepted", ClaimID: claimID, ConfirmationID: evID})
}

// erasureScopeFor decides which tiers an erasure of kind (and target) by the caller id may touch: what the caller
// may write. An agent key erases within its own private tier; a curator key also in the shared tier (never
// another agent's private tier); an admin key (and development mode) anything of the workspace. It returns the
// scope and its agent, or a 403 reason.
func erasureScopeFor(id auth.Identity, kind, target string) (scope, scopeAgent, forbidden string) {
	if id.Admin() {
		return ScopeAll, "", ""
	}
	if kind == api.EraseWorkspace {
		return "", "", "erasing a whole workspace needs an admin key"
	}
	switch id.Role {
	case auth.RoleCurator:
		if kind == api.EraseAgent && target != id.Agent {
			// Another agent's shared claims only: its private tier is not the curator's to see or erase.
			return ScopeShared, "", ""
		}
		return ScopeSharedPrivate, id.Agent, ""
	default:
		if kind == api.EraseAgent && target != id.Agent {
			return "", "", "an agent key may only erase its own agent's claims"
		}
		return ScopePrivate, id.Agent, ""
	}
}

// handleErasure records an erasure request, publishes its partition commands and waits (up to ErasureWait) for
// it to complete: 200 with the record when done, else 202 (poll GET .../erasures/{id}). The erasure is limited to
// the tiers the caller may write (erasureScopeFor), and its record counts only what lies in them.
func (s *Service) handleErasure(w http.ResponseWriter, r *http.Request) {
	ws := r.PathValue("ws")
	id, err := s.auth.Identify(r, ws, false)
	if err != nil {
		auth.WriteError(w, err)
		return
	}
	var req api.ErasureRequest
	if err := api.DecodeBody(w, r, maxErasureBody, &req); err != nil {
		var he *api.HTTPError
		if errors.As(err, &he) {
			he.Write(w)
		}
		return
	}
	switch req.Kind {
	case api.EraseSubject:
		req.Target = canon.SubjectKey(req.Target)
		if req.Target == "" {
			api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "target", "a subject erasure needs the subject (or its key) as target")
			return
		}
	case api.EraseAgent:
		if err := auth.ValidAgentID(req.Target); err != nil {
			api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "target", "an agent erasure needs a valid agent id as target: "+err.Error())
			return
		}
	case api.EraseWorkspace:
		if req.Target != "" && req.Target != ws {
			api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "target", "a workspace erasure takes no target (or the workspace id)")
			return
		}
		req.Target = ""
	default:
		api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "kind", "kind must be subject, agent or workspace")
		return
	}
	scope, scopeAgent, forbidden := erasureScopeFor(id, req.Kind, req.Target)
	if forbidden != "" {
		field := "target"
		if req.Kind == api.EraseWorkspace {
			field = "kind"
		}
		api.WriteError(w, http.StatusForbidden, api.CodeForbidden, field, forbidden)
		return
	}
	st, err := s.RequestErasure(r.Context(), ErasureSpec{Workspace: ws, Kind: req.Kind, Target: req.Target, Scope: scope,
		ScopeAgent: scopeAgent, RequestedBy: id.Agent, KeyID: id.KeyID})
	if err != nil {
		s.log.Error("reconciler: erasure request", "err", err)
		api.WriteError(w, http.StatusServiceUnavailable, api.CodeUnavailable, "", "the erasure could not be started; retry")
		return
	}
	if s.cfg.ErasureWait > 0 {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.ErasureWait)
		st, err = s.WaitErasure(ctx, ws, st.ErasureID)
		cancel()
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			s.log.Error("reconciler: erasure wait", "err", err)
		}
	}
	code := http.StatusAccepted
	if st.Status == "completed" {
		code = http.StatusOK
	}
	api.WriteJSON(w, code, st)
}

// handleErasureStatus answers the record of an erasure to the agent that requested it and to admin keys; to
// anyone else an erasure is as unknown as a missing one.
func (s *Service) handleErasureStatus(w http.ResponseWriter, r *http.Request) {
	ws, eid := r.PathValue("ws"), r.PathValue("id")
	id, err := s.auth.Identify(r, ws, false)
	if err != nil {
		auth.WriteError(w, err)
		return
	}
	if uuid.Validate(eid) != nil {
		api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "id", "erasure id is not a UUID")
		return
	}
	st, err := s.erasureStatus(r.Context(), ws, eid)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !id.Admin() && st.RequestedBy != id.Agent) {
		api.WriteError(w, http.StatusNotFound, api.CodeNotFound, "id", "no such erasure in this workspace")
		return
	}
	if err != nil {
		api.WriteError(w, http.StatusServiceUnavailable, api.CodeUnavailable, "", "the store is unavailable; retry")
		return
	}
	api.WriteJSON(w, http.StatusOK, st)
}

// ErasureSpec is one erasure to request.
type ErasureSpec struct {
	Workspace string
	// Kind is api.EraseSubject, api.EraseAgent or api.EraseWorkspace; Target a canonical subject key, an agent id, or empty.
	Kind, Target string
	// Scope (default ScopeAll) and ScopeAgent limit the erasure to tiers (see erasureScopeFor).
	Scope, ScopeAgent string
	// RequestedBy is the requesting agent; KeyID the key it used, if any (for the audit log).
	RequestedBy, KeyID string
}

// RequestErasure records an erasure (and its audit entry, in one transaction) and publishes its commands to the
// affected claims partitions; the partition owners carry it out.
func (s *Service) RequestErasure(ctx context.Context, spec ErasureSpec) (api.Erasure, error) {
	ws, kind, target := spec.Workspace, spec.Kind, spec.Target
	if spec.Scope == "" {
		spec.Scope = ScopeAll
	}
	eid := uuid.NewString()
	now := time.Now().UTC().Truncate(time.Microsecond)
	parts := []int{}
	if kind == api.EraseSubject {
		parts = append(parts, bus.PartitionOf(ws, target, s.cfg.Partitions))
	} else {
		for p := range s.cfg.Partitions {
			parts = append(parts, p)
		}
	}
	err := pgx.BeginFunc(ctx, s.deps.DB, func(tx pgx.Tx) error {
		if err := store.InsertErasure(ctx, tx, store.ErasureRow{ID: eid, Workspace: ws, Kind: kind, TargetHash: targetHash(ws, target),
			RequestedBy: spec.RequestedBy, RequestedAt: now, Partitions: len(parts), Scope: spec.Scope, ScopeAgent: spec.ScopeAgent,
			RequestedKey: spec.KeyID}, false); err != nil {
			return err
		}
		details := map[string]any{"erasure_id": eid, "kind": kind, "scope": spec.Scope}
		if spec.ScopeAgent != "" {
			details["scope_agent"] = spec.ScopeAgent
		}
		if h := targetHash(ws, target); h != "" {
			details["target_hash"] = h
		}
		_, err := audit.Record(ctx, tx, audit.Entry{Workspace: ws, Action: event.AuditErasureRequested, Actor: spec.RequestedBy,
			KeyID: spec.KeyID, Details: details})
		return err
	})
	if err != nil {
		return api.Erasure{}, err
	}
	cmd := event.ErasureRequestedV1{ErasureID: eid, Workspace: ws, Kind: kind, Target: target, RequestedBy: spec.RequestedBy, RequestedAt: now,
		Scope: spec.Scope, ScopeAgent: spec.ScopeAgent}
	for _, p := range parts {
		env, err := event.New(event.TypeErasureRequested, fmt.Sprintf("erasure:%s:%d", eid, p), "mneme/reconciler", ws, now, cmd)
		if err != nil {
			return api.Erasure{}, err
		}
		if _, err := bus.PublishEvent(ctx, s.deps.JS, bus.ClaimsSubject(p), env); err != nil {
			return api.Erasure{}, fmt.Errorf("publish erasure command: %w", err)
		}
	}
	s.log.Info("reconciler: erasure requested", "erasure_id", eid, "workspace", ws, "kind", kind, "scope", spec.Scope, "partitions", len(parts))
	return s.erasureStatus(ctx, ws, eid)
}

// WaitErasure polls the erasure record until it completes or ctx ends; it returns the last record read.
func (s *Service) WaitErasure(ctx context.Context, ws, eid string) (api.Erasure, error) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	var last api.Erasure
	for {
		st, err := s.erasureStatus(ctx, ws, eid)
		if err != nil {
			if ctx.Err() != nil {
				return last, ctx.Err()
			}
			return last, err
		}
		last = st
		if st.Status == "completed" {
			return st, nil
		}
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case <-t.C:
		}
	}
}

func (s *Service) erasureStatus(ctx context.Context, ws, eid string) (api.Erasure, error) {
	return store.ErasureStatus(ctx, s.deps.DB, ws, eid)
}
