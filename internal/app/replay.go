package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
)

// Digest prints the canonical digest of the projection.
func Digest(ctx context.Context, cfg Config, out io.Writer) error {
	return errors.New("digest: not available yet (reconciler admin functions pending)")
}

// Replay rebuilds the projection from the streams into another database and compares digests.
func Replay(ctx context.Context, cfg Config, into string, out io.Writer, log *slog.Logger) error {
	_ = fmt.Sprint
	return errors.New("replay: not available yet (reconciler admin functions pending)")
}
