package reconciler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
)

// maxErasureBody bounds the erasure request body.
const maxErasureBody = 4096

// ConfirmResponse is the answer of POST /v1/workspaces/{ws}/claims/{id}/confirm: the confirmation was
// published to the claim's partition and takes effect when the reconciler applies it.
type ConfirmResponse struct {
	Status         string `json:"status"`
	ClaimID        string `json:"claim_id"`
	ConfirmationID string `json:"confirmation_id"`
}

// handleConfirm publishes a ClaimConfirmedV1 for a claim the caller can see. Confirming twice as the same
// agent has one effect (the event id is derived from workspace, claim and agent).
func (s *Service) handleConfirm(w http.ResponseWriter, r *http.Request) {
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
	var subject, scope, owner string
	err = s.deps.DB.QueryRow(r.Context(), `SELECT subject_key, scope, owner_agent FROM claims WHERE workspace_id = $1 AND id = $2`, ws, claimID).Scan(&subject, &scope, &owner)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && scope == string(event.ScopePrivate) && owner != id.Agent) {
		// A private claim of another agent is as unknown as a missing one.
		api.WriteError(w, http.StatusNotFound, api.CodeNotFound, "id", "no such claim in this workspace (it may not be reconciled yet)")
		return
	}
	if err != nil {
		s.log.Error("reconciler: confirm: look up claim", "err", err)
		api.WriteError(w, http.StatusServiceUnavailable, api.CodeUnavailable, "", "the store is unavailable; retry")
		return
	}
	p := bus.PartitionOf(ws, subject, s.cfg.Partitions)
	ev := event.ClaimConfirmedV1{Workspace: ws, ClaimID: claimID, SubjectKey: subject, AgentID: id.Agent, ConfirmedAt: time.Now().UTC(), Partition: p}
	evID := event.DeterministicID("confirm", ws, claimID, id.Agent)
	env, err := event.New(event.TypeClaimConfirmed, evID, "mneme/reconciler", ws, ev.ConfirmedAt, ev)
	if err != nil {
		api.WriteError(w, http.StatusInternalServerError, api.CodeInternal, "", "internal error")
		return
	}
	env.Subject = claimID
	if _, err := bus.PublishEvent(r.Context(), s.deps.JS, bus.ClaimsSubject(p), env); err != nil {
		s.log.Error("reconciler: confirm: publish", "err", err)
		api.WriteError(w, http.StatusServiceUnavailable, api.CodeUnavailable, "", "the bus is unavailable; retry")
		return
	}
	api.WriteJSON(w, http.StatusAccepted, ConfirmResponse{Status: "accepted", ClaimID: claimID, ConfirmationID: evID})
}

// handleErasure records an erasure request, publishes its partition commands and waits (up to ErasureWait) for
// it to complete: 200 with the record when done, else 202 (poll GET .../erasures/{id}). A key bound to one agent
// may only erase that agent's claims or a subject; a workspace erasure needs a key valid for any agent (or dev
// mode).
func (s *Service) handleErasure(w http.ResponseWriter, r *http.Request) {
	ws := r.PathValue("ws")
	id, err := s.auth.Identify(r, ws, false)
	if err != nil {
		auth.WriteError(w, err)
		return
	}
	var req ErasureRequest
	dec := json.NewDecoder(io.LimitReader(r.Body, maxErasureBody+1))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "", "body must be JSON {\"kind\": \"subject|agent|workspace\", \"target\": \"...\"}: "+err.Error())
		return
	}
	switch req.Kind {
	case EraseSubject:
		req.Target = canon.SubjectKey(req.Target)
		if req.Target == "" {
			api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "target", "a subject erasure needs the subject (or its key) as target")
			return
		}
	case EraseAgent:
		if err := auth.ValidAgentID(req.Target); err != nil {
			api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "target", "an agent erasure needs a valid agent id as target: "+err.Error())
			return
		}
		if id.KeyBound && req.Target != id.Agent {
			api.WriteError(w, http.StatusForbidden, api.CodeForbidden, "target", "this key may only erase its own agent's claims")
			return
		}
	case EraseWorkspace:
		if req.Target != "" && req.Target != ws {
			api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "target", "a workspace erasure takes no target (or the workspace id)")
			return
		}
		req.Target = ""
		if id.KeyBound {
			api.WriteError(w, http.StatusForbidden, api.CodeForbidden, "kind", "erasing a workspace needs a key that is not bound to one agent")
			return
		}
	default:
		api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "kind", "kind must be subject, agent or workspace")
		return
	}
	st, err := s.RequestErasure(r.Context(), ws, req.Kind, req.Target, id.Agent)
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

func (s *Service) handleErasureStatus(w http.ResponseWriter, r *http.Request) {
	ws, eid := r.PathValue("ws"), r.PathValue("id")
	if _, err := s.auth.Identify(r, ws, false); err != nil {
		auth.WriteError(w, err)
		return
	}
	if uuid.Validate(eid) != nil {
		api.WriteError(w, http.StatusBadRequest, api.CodeInvalid, "id", "erasure id is not a UUID")
		return
	}
	st, err := s.erasureStatus(r.Context(), ws, eid)
	if errors.Is(err, pgx.ErrNoRows) {
		api.WriteError(w, http.StatusNotFound, api.CodeNotFound, "id", "no such erasure in this workspace")
		return
	}
	if err != nil {
		api.WriteError(w, http.StatusServiceUnavailable, api.CodeUnavailable, "", "the store is unavailable; retry")
		return
	}
	api.WriteJSON(w, http.StatusOK, st)
}

// RequestErasure records an erasure and publishes its commands to the affected claims partitions; the partition
// owners carry it out. target is a canonical subject key, an agent id, or empty for a workspace.
func (s *Service) RequestErasure(ctx context.Context, ws, kind, target, requestedBy string) (ErasureStatus, error) {
	eid := uuid.NewString()
	now := time.Now().UTC().Truncate(time.Microsecond)
	parts := []int{}
	if kind == EraseSubject {
		parts = append(parts, bus.PartitionOf(ws, target, s.cfg.Partitions))
	} else {
		for p := range s.cfg.Partitions {
			parts = append(parts, p)
		}
	}
	if _, err := s.deps.DB.Exec(ctx, `INSERT INTO erasures (id, workspace_id, kind, target_hash, requested_by, requested_at, partitions)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, eid, ws, kind, nullable(targetHash(ws, target)), requestedBy, now, len(parts)); err != nil {
		return ErasureStatus{}, fmt.Errorf("record erasure: %w", err)
	}
	cmd := event.ErasureRequestedV1{ErasureID: eid, Workspace: ws, Kind: kind, Target: target, RequestedBy: requestedBy, RequestedAt: now}
	for _, p := range parts {
		env, err := event.New(event.TypeErasureRequested, fmt.Sprintf("erasure:%s:%d", eid, p), "mneme/reconciler", ws, now, cmd)
		if err != nil {
			return ErasureStatus{}, err
		}
		if _, err := bus.PublishEvent(ctx, s.deps.JS, bus.ClaimsSubject(p), env); err != nil {
			return ErasureStatus{}, fmt.Errorf("publish erasure command: %w", err)
		}
	}
	s.log.Info("reconciler: erasure requested", "erasure_id", eid, "workspace", ws, "kind", kind, "partitions", len(parts))
	return s.erasureStatus(ctx, ws, eid)
}

// WaitErasure polls the erasure record until it completes or ctx ends; it returns the last record read.
func (s *Service) WaitErasure(ctx context.Context, ws, eid string) (ErasureStatus, error) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	var last ErasureStatus
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

func (s *Service) erasureStatus(ctx context.Context, ws, eid string) (ErasureStatus, error) {
	var st ErasureStatus
	var hash *string
	err := s.deps.DB.QueryRow(ctx, `SELECT id::text, workspace_id, kind, target_hash, requested_by, requested_at, status, completed_at,
			claims_erased, messages_purged
		FROM erasures WHERE id = $1 AND workspace_id = $2`, eid, ws).Scan(&st.ErasureID, &st.Workspace, &st.Kind, &hash,
		&st.RequestedBy, &st.RequestedAt, &st.Status, &st.CompletedAt, &st.ClaimsErased, &st.MessagesPurged)
	st.TargetHash = deref(hash)
	return st, err
}
