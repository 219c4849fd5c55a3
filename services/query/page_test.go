package query

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestTimelinePageFiles: the page and its modules are served from the binary with the types a browser needs
// to run them under nosniff, a policy that allows no inline script, no other origin and no framing, and no
// file outside the page's directory.
func TestTimelinePageFiles(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("GET "+TimelinePath, timelinePage())
	mux.Handle("GET /timeline", http.RedirectHandler(TimelinePath, http.StatusMovedPermanently))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := noRedirect.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	for path, typ := range map[string]string{
		"/timeline/": "text/html", "/timeline/app.js": "text/javascript", "/timeline/api.js": "text/javascript",
		"/timeline/dom.js": "text/javascript", "/timeline/time.js": "text/javascript", "/timeline/timeline.js": "text/javascript",
		"/timeline/style.css": "text/css",
	} {
		resp, body := get(path)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), typ) || len(body) < 100 {
			t.Errorf("%s: %d %q, %d bytes", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
		}
		csp := resp.Header.Get("Content-Security-Policy")
		for _, d := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, d) {
				t.Errorf("%s: Content-Security-Policy %q lacks %s", path, csp, d)
			}
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", path)
		}
	}
	if resp, _ := get("/timeline"); resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != TimelinePath {
		t.Errorf("/timeline: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, path := range []string{"/timeline/missing.js", "/timeline/../page.go", "/timeline/%2e%2e/page.go"} {
		if resp, _ := get(path); resp.StatusCode == http.StatusOK {
			t.Errorf("%s is served", path)
		}
	}
}

// TestTimelinePageWritesNoMarkup: the page's scripts build the DOM from text nodes only — no innerHTML,
// outerHTML, insertAdjacentHTML, document.write or eval-like sinks that would turn memory content into markup
// (the browser test checks the rendered result; this keeps a future edit from adding a sink at all).
func TestTimelinePageWritesNoMarkup(t *testing.T) {
	sinks := regexp.MustCompile(`\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval|Function\(|setAttribute\(\s*['"]on)`)
	entries, err := webFiles.ReadDir("web/timeline")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".js") && !strings.HasSuffix(e.Name(), ".html") {
			continue
		}
		b, err := webFiles.ReadFile("web/timeline/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if m := sinks.FindString(line); m != "" {
				t.Errorf("%s:%d uses %s: %s", e.Name(), i+1, m, strings.TrimSpace(line))
			}
		}
	}
}
