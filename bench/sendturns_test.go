package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
)

// TestSendTurnsRetriesBusyService: a batch answered 503 (not stored durably yet) or 429 is sent again until it
// is accepted; a request the service rejects (400) is not sent again.
func TestSendTurnsRetriesBusyService(t *testing.T) {
	for _, tc := range []struct {
		name     string
		statuses []int
		wantErr  bool
		wantSent int32
	}{
		{"busy, then accepted", []int{http.StatusServiceUnavailable, http.StatusTooManyRequests, http.StatusAccepted}, false, 3},
		{"rejected", []int{http.StatusBadRequest}, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := sent.Add(1)
				status := tc.statuses[min(int(n), len(tc.statuses))-1]
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				if status == http.StatusAccepted {
					_, _ = w.Write([]byte(`{"accepted":1}`))
					return
				}
				_, _ = w.Write([]byte(`{"error":{"code":"x","message":"y"}}`))
			}))
			defer srv.Close()
			c, err := client.New(srv.URL, "bench")
			if err != nil {
				t.Fatal(err)
			}
			err = sendTurns(context.Background(), c, "ws", []api.TurnInput{{TurnID: "t1", Content: "hello"}})
			if (err != nil) != tc.wantErr || sent.Load() != tc.wantSent {
				t.Fatalf("err = %v, requests = %d; want error %v after %d requests", err, sent.Load(), tc.wantErr, tc.wantSent)
			}
		})
	}
}
