package api_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
)

// TestDecodeBody: one JSON object within the limit decodes; anything else is refused with the status, code,
// field and limit a caller needs to fix the request.
func TestDecodeBody(t *testing.T) {
	type body struct {
		Kind  string `json:"kind"`
		Count int    `json:"count"`
	}
	const limit = 64
	for _, c := range []struct {
		name, in    string
		status      int
		code, field string
		limit       string
		wantDecoded body
	}{
		{name: "one object", in: `{"kind":"subject","count":2}`, wantDecoded: body{"subject", 2}},
		{name: "over the limit", in: `{"kind":"` + strings.Repeat("x", 70) + `"}`, status: 413, code: api.CodeTooLarge, limit: "64 bytes"},
		{name: "unknown field", in: `{"kind":"a","target":"b"}`, status: 400, code: api.CodeInvalid, field: "target"},
		{name: "wrong type", in: `{"count":"two"}`, status: 400, code: api.CodeInvalid, field: "count"},
		{name: "trailing data", in: `{"kind":"a"} x`, status: 400, code: api.CodeInvalid},
		{name: "two objects", in: `{"kind":"a"} {"kind":"b"}`, status: 400, code: api.CodeInvalid},
		{name: "empty", in: `  `, status: 400, code: api.CodeInvalid},
		{name: "not UTF-8", in: "{\"kind\":\"\xff\"}", status: 400, code: api.CodeInvalid},
		{name: "cut short", in: `{"kind":`, status: 400, code: api.CodeInvalid},
		{name: "not an object", in: `[1,2]`, status: 400, code: api.CodeInvalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.in))
			var got body
			err := api.DecodeBody(httptest.NewRecorder(), req, limit, &got)
			if c.status == 0 {
				if err != nil || got != c.wantDecoded {
					t.Fatalf("got %+v, %v; want %+v", got, err, c.wantDecoded)
				}
				return
			}
			var he *api.HTTPError
			if !errors.As(err, &he) {
				t.Fatalf("got %v, want an *api.HTTPError", err)
			}
			if he.Status != c.status || he.Code != c.code || he.Field != c.field || he.Limit != c.limit || he.Message == "" {
				t.Errorf("got %d %s field %q limit %q (%s); want %d %s field %q limit %q", he.Status, he.Code, he.Field, he.Limit, he.Message,
					c.status, c.code, c.field, c.limit)
			}
			rec := httptest.NewRecorder()
			he.Write(rec)
			if rec.Code != c.status || !strings.Contains(rec.Body.String(), `"code":"`+c.code+`"`) {
				t.Errorf("written as %d %s", rec.Code, rec.Body)
			}
		})
	}
}
