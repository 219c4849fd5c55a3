package ingest

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
)

// Routes registers the write endpoints.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/workspaces/{ws}/turns", s.handleTurns)
	mux.HandleFunc("POST /v1/workspaces/{ws}/claims", s.handleClaims)
}

func (s *Service) handleTurns(w http.ResponseWriter, r *http.Request) { s.handleWrite(w, r, kindTurns) }
func (s *Service) handleClaims(w http.ResponseWriter, r *http.Request) {
	s.handleWrite(w, r, kindClaims)
}

// handleWrite is the shared shape of both write endpoints: authenticate, read and validate the whole batch,
// make sure the workspace exists (a development-mode write creates it, but only once the batch is valid),
// publish every event and answer 202 once all are acknowledged.
func (s *Service) handleWrite(w http.ResponseWriter, r *http.Request, kind string) {
	start := time.Now() // the stage latency of an accepted write: authentication, decoding and publishing
	ws := r.PathValue("ws")
	id, err := s.auth.Authenticate(r, ws)
	if err != nil {
		s.authFailed(w, r, err)
		return
	}
	body, ierr := readBody(w, r, s.cfg.MaxBodyBytes)
	if ierr != nil {
		s.rejectHTTP(w, r, ierr)
		return
	}
	o := batchOrigin{workspace: ws, headerAgent: id.Agent, bound: true, boundBy: "the " + api.HeaderAgent + " header", receivedAt: time.Now(), newTurnID: randomTurnIDs}
	// The body is read before waiting for a decode slot, so a slow sender never holds one; it is bounded by
	// MaxBodyBytes, decoding is what multiplies memory.
	if err := s.acquireDecode(r.Context()); err != nil {
		api.WriteJSON(w, http.StatusServiceUnavailable, api.Error{Error: api.ErrorBody{Code: api.CodeUnavailable,
			Message: "the request ended while waiting for other requests to be decoded; retry it"}})
		return
	}
	events, ierr := s.decodeBatch(kind, o, body)
	s.releaseDecode()
	if ierr != nil {
		s.rejectHTTP(w, r, ierr)
		return
	}
	if err := s.auth.CheckWorkspace(r.Context(), ws, id.Agent, true); err != nil {
		s.authFailed(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.PublishTimeout)
	defer cancel()
	// The request's span (from the caller's traceparent, if any) is the parent of every event's trace: the
	// publish carries it in the message headers.
	dups, err := s.publishAll(ctx, events)
	s.stage.Observe(r.Context(), start, err)
	if err != nil {
		s.log.WarnContext(ctx, "publish failed", "workspace", ws, "agent", id.Agent, "events", len(events), "err", err)
		api.WriteJSON(w, http.StatusServiceUnavailable, api.Error{Error: api.ErrorBody{Code: api.CodeUnavailable,
			Message: "the events could not be stored durably; retry the request (events with the same ids have one effect)"}})
		return
	}
	s.metrics.published(r.Context(), transportHTTP, events[0].env.Type, len(events), len(dups))
	ids := make([]string, len(events))
	for i, ev := range events {
		ids[i] = ev.reportID
	}
	api.WriteJSON(w, http.StatusAccepted, api.AcceptedResponse{Workspace: ws, IDs: ids, Duplicates: dups})
}

func (s *Service) rejectHTTP(w http.ResponseWriter, r *http.Request, ierr *api.HTTPError) {
	s.metrics.reject(r.Context(), transportHTTP, ierr.Code)
	api.WriteJSON(w, ierr.Status, rejectBody(ierr))
}

func (s *Service) authFailed(w http.ResponseWriter, r *http.Request, err error) {
	var ae *auth.Error
	switch {
	case !errors.As(err, &ae) || ae.Status >= 500:
		s.log.WarnContext(r.Context(), "auth lookup failed", "err", err)
	default:
		s.metrics.reject(r.Context(), transportHTTP, ae.Body.Code)
	}
	auth.WriteError(w, err)
}
