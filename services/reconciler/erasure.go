package reconciler

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/api"
)

func (e *engine) applyErasure(ctx context.Context, tx pgx.Tx, partition int, it item) error {
	return nil
}

func (s *Service) handleConfirm(w http.ResponseWriter, r *http.Request) {
	api.WriteError(w, http.StatusNotImplemented, api.CodeInternal, "", "not yet")
}

func (s *Service) handleErasure(w http.ResponseWriter, r *http.Request) {
	api.WriteError(w, http.StatusNotImplemented, api.CodeInternal, "", "not yet")
}

func (s *Service) handleErasureStatus(w http.ResponseWriter, r *http.Request) {
	api.WriteError(w, http.StatusNotImplemented, api.CodeInternal, "", "not yet")
}
