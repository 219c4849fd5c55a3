package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mneme-ai/mneme/internal/app/apptest"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
)

// chromium finds the browser the page test drives: $MNEME_CHROMIUM, else the first of Debian's, Ubuntu's or
// Google's names on PATH. Without one the test skips — unless MNEME_REQUIRE_BROWSER=1 or MNEME_REQUIRE_MODEL=1
// (make test's strict mode) asks for every test to run, and then it fails.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("MNEME_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("MNEME_REQUIRE_BROWSER") == "1" || os.Getenv("MNEME_REQUIRE_MODEL") == "1" {
		t.Fatal("no chromium on PATH: scripts/deps.sh installs Debian's chromium (or set MNEME_CHROMIUM to a Chromium or Chrome binary)")
	}
	t.Skip("no chromium on PATH, so the timeline page is not tested in a browser: scripts/deps.sh installs it (MNEME_REQUIRE_BROWSER=1 makes this a failure)")
	return ""
}

// pageState is what the timeline page shows, read from its DOM by pageStateJS.
type pageState struct {
	Subject      string            `json:"subject"`
	View         string            `json:"view"`
	Status       string            `json:"status"`
	Results      []string          `json:"results"`
	Current      map[string]string `json:"current"`      // slot key → the "Current beliefs" value
	SlotCurrent  map[string]string `json:"slot_current"` // slot key → the slot card's current line
	Rows         []pageRow         `json:"rows"`
	Bars         map[string][2]int `json:"bars"` // slot key → bars on the valid and transaction charts
	Detail       string            `json:"detail"`
	Images       int               `json:"images"`
	InjectedNode bool              `json:"injected_node"`
}

type pageRow struct {
	Slot     string `json:"slot"`
	Object   string `json:"object"`
	Version  string `json:"version"`
	Status   string `json:"status"`
	Valid    string `json:"valid"`
	Believed string `json:"believed"`
	Change   string `json:"change"`
	Retired  bool   `json:"retired"`
	Negated  bool   `json:"negated"`
	Value    string `json:"value"` // the value cell's text as rendered
	// Corroboration is the version's corroboration badge as rendered ("" without one).
	Corroboration string `json:"corroboration"`
}

// pageStateJS reads pageState from the DOM: text as the person sees it, nothing from the page's variables.
const pageStateJS = `(() => {
  const txt = (n) => (n ? n.textContent.replace(/\s+/g, ' ').trim() : '');
  const s = document.getElementById('subject');
  const out = {subject: s.dataset.subject || '', view: s.dataset.view || '', status: txt(document.getElementById('status')),
    results: [...document.querySelectorAll('li.result')].map((li) => li.dataset.subject + ': ' + txt(li.querySelector('.result-text'))),
    current: {}, slot_current: {}, rows: [], bars: {}, detail: document.getElementById('detail').hidden ? '' : document.getElementById('detail-body').innerText.replace(/\s+/g, ' ').trim(),
    images: document.images.length, injected_node: document.getElementById('pwned') !== null || document.body.dataset.pwned !== undefined};
  for (const dd of document.querySelectorAll('dd.current-value')) out.current[dd.dataset.slot] = txt(dd);
  for (const card of document.querySelectorAll('section.slot')) {
    const slot = card.dataset.slot;
    out.slot_current[slot] = txt(card.querySelector('.slot-current'));
    out.bars[slot] = [card.querySelectorAll('.chart-valid g.bar').length, card.querySelectorAll('.chart-transaction g.bar').length];
    for (const tr of card.querySelectorAll('table.versions tbody tr')) {
      out.rows.push({slot, object: tr.dataset.object, version: tr.dataset.version, status: txt(tr.querySelector('.c-status')),
        valid: txt(tr.querySelector('.c-valid')), believed: txt(tr.querySelector('.c-believed')), change: txt(tr.querySelector('.c-change')),
        retired: tr.classList.contains('retired'), negated: tr.classList.contains('negated'), value: txt(tr.querySelector('.c-value .value')),
        corroboration: txt(tr.querySelector('.c-value .badge.corroborated'))});
    }
  }
  return out;
})()`

func (p pageState) row(slot, object string) (pageRow, bool) {
	for _, r := range p.Rows {
		if r.Slot == slot && r.Object == object && !r.Retired {
			return r, true
		}
	}
	return pageRow{}, false
}

// TestTimelinePage loads the demo scenario (examples/demo) into the real stack, adds what the demo lacks — a
// change held pending, a negation that contradicts a current value, a value that looks like markup, and a
// second agent corroborating a demo fact — and drives the timeline page in headless Chromium as a person
// would: connect, search, open the subject, read every slot on both time axes with its decisions, move the
// valid-time and transaction-time "as of" controls, open a disputed subject and a corroborated one. It checks
// what the page shows against what the scenario wrote and writes screenshots to the test's artifact directory
// (go test -artifacts -outputdir DIR keeps them; scripts/test.sh keeps them under .local/test-artifacts).
func TestTimelinePage(t *testing.T) {
	browser := chromium(t)
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"version":"page-test-1","rules":[{"predicate":"role","await_confirmation":{}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	sys := apptest.Start(t, map[string]string{"MNEME_RECONCILER_POLICY_FILE": policy})
	const ws = "demo"
	demo := exec.Command("go", "run", "./examples/demo", "-url", sys.BaseURL, "-nats", sys.NATSURL, "-ws", ws)
	demo.Dir = "../.."
	if out, err := demo.CombinedOutput(); err != nil {
		t.Fatalf("demo scenario: %v\n%s", err, out)
	}

	ctx := context.Background()
	planner, err := client.New(sys.BaseURL, "planner")
	if err != nil {
		t.Fatal(err)
	}
	const markup = `<img src=x onerror="document.body.dataset.pwned=1"><b id="pwned">Ali</b>`
	write := func(cs ...api.ClaimInput) {
		t.Helper()
		if _, err := planner.Claims(ctx, ws, api.ClaimsRequest{Claims: cs}); err != nil {
			t.Fatal(err)
		}
	}
	write(api.ClaimInput{Subject: "Alice", Predicate: "role", Object: "engineer", ValidFrom: day("2024-01-01")},
		api.ClaimInput{Subject: "Alice", Predicate: "nickname", Object: markup, ValidFrom: day("2024-01-01")})
	subject := func(key string, o client.ReadOptions) *api.SubjectResponse {
		t.Helper()
		s, err := planner.Subject(ctx, ws, key, o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	find := func(s *api.SubjectResponse, slot, object string) (api.TimelineEntry, bool) {
		for _, sl := range s.Slots {
			for _, e := range sl.Timeline {
				if sl.SlotKey == slot && e.Object == object && e.RetiredAt == nil {
					return e, true
				}
			}
		}
		return api.TimelineEntry{}, false
	}
	// Corroboration: in the demo, scheduler told Bob's move to Lisbon in conversation (an extracted claim).
	// planner asserts the same fact independently — and then again under another source reference, which is
	// the same agent repeating itself — so the page must say two agents, never three. A last claim about Bob
	// from planner marks the end: one subject's writes are reconciled in order, so once it shows, the repeat
	// has been reconciled too.
	var lisbon api.TimelineEntry
	var lisbonSlot api.Slot
	eventually(t, 60*time.Second, "the demo's Bob lives in Lisbon", func() bool {
		s, err := planner.Subject(ctx, ws, "bob", client.ReadOptions{})
		if err != nil {
			return false
		}
		for _, sl := range s.Slots {
			for _, e := range sl.Timeline {
				if e.Object == "Lisbon" && e.RetiredAt == nil && e.Owner == "scheduler" {
					lisbon, lisbonSlot = e, sl
					return true
				}
			}
		}
		return false
	})
	lisbonFrom, functional := lisbon.ValidFrom, lisbonSlot.Functional
	for _, source := range []string{"", "planner-notes"} {
		write(api.ClaimInput{Subject: "Bob", Predicate: lisbonSlot.Predicate, Object: "Lisbon", ValidFrom: &lisbonFrom, Functional: &functional, Source: source})
	}
	write(api.ClaimInput{Subject: "Bob", Predicate: "favourite drink", Object: "tea", ValidFrom: day("2024-01-01")})
	eventually(t, 60*time.Second, "planner's claims about Bob are reconciled", func() bool {
		_, ok := find(subject("bob", client.ReadOptions{}), "favourite_drink", "tea")
		return ok
	})

	eventually(t, 60*time.Second, "the first role is reconciled", func() bool {
		_, ok := find(subject("alice", client.ReadOptions{}), "role", "engineer")
		return ok
	})
	write(api.ClaimInput{Subject: "Alice", Predicate: "role", Object: "manager", ValidFrom: day("2025-01-01")},
		api.ClaimInput{Subject: "Alice", Predicate: "lives in", Object: "Berlin", Negated: true, ValidFrom: day("2025-07-01"),
			Text: "Alice has never lived in Berlin."})
	var alice *api.SubjectResponse
	eventually(t, 60*time.Second, "the role change is pending and the negation is linked to Berlin", func() bool {
		alice = subject("alice", client.ReadOptions{})
		m, ok1 := find(alice, "role", "manager")
		b, ok2 := find(alice, "lives_in", "Berlin")
		return ok1 && m.Status == "pending" && ok2 && len(b.Contradicts) == 1
	})
	paris, _ := find(alice, "lives_in", "Paris")
	berlin, _ := find(alice, "lives_in", "Berlin")
	// Between Paris being first recorded and Berlin being recorded (which retired Paris's first belief version),
	// memory believed Alice lived in Paris.
	parisFirst := paris.RecordedAt
	for _, sl := range alice.Slots {
		for _, e := range sl.Timeline {
			if e.ClaimID == paris.ClaimID && e.RecordedAt.Before(parisFirst) {
				parisFirst = e.RecordedAt
			}
		}
	}
	if !parisFirst.Before(berlin.RecordedAt) {
		t.Fatalf("Paris first recorded at %s, Berlin at %s", parisFirst, berlin.RecordedAt)
	}
	believedParis := parisFirst.Add(berlin.RecordedAt.Sub(parisFirst) / 2)
	parisDetail, err := planner.Claim(ctx, ws, paris.ClaimID, client.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(parisDetail.Decisions) == 0 {
		t.Fatal("the API shows no decision behind Paris")
	}
	lastDecision := parisDetail.Decisions[len(parisDetail.Decisions)-1]

	// The browser: Debian's chromium, headless, with nothing that reaches beyond loopback.
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1440, 1000),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true), chromedp.Flag("no-proxy-server", true),
	)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	defer cancelBrowser()
	// The first action starts the browser, which lives as long as the context of that call: bctx itself.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start %s: %v", browser, err)
	}
	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(bctx, 60*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	read := func() pageState {
		t.Helper()
		st, err := chromedp.Run(bctx, chromedp.Evaluate[pageState](pageStateJS))
		if err != nil {
			t.Fatalf("read the page: %v", err)
		}
		return st
	}
	// waitView waits until the page shows subject key read at the view "asOf|knownAt" ("now" for none).
	waitView := func(key, view string) pageState {
		t.Helper()
		run("wait for "+key+" at "+view, chromedp.Poll[chromedp.Void](fmt.Sprintf(
			`(() => { const s = document.getElementById('subject'); return s.dataset.subject === %q && s.dataset.view === %q && !s.hasAttribute('aria-busy'); })()`,
			key, view), chromedp.WithPollingTimeout(30*time.Second)))
		return read()
	}
	screenshot := func(name string) {
		t.Helper()
		// From the top, so the sticky side bar and the claim panel sit where a person first sees them.
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`)); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		path := filepath.Join(t.ArtifactDir(), name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s (%d bytes)", path, len(png))
	}

	// Connect as planner and search.
	run("load the page and search",
		chromedp.Navigate(sys.BaseURL+"/timeline/"),
		chromedp.WaitVisible(chromedp.ID("connect")),
		chromedp.SendKeys(chromedp.ID("workspace"), ws),
		chromedp.SendKeys(chromedp.ID("agent"), "planner"),
		chromedp.Click(chromedp.ID("connect-button")),
		chromedp.SendKeys(chromedp.ID("query"), "Where does Alice live?"),
		chromedp.Click(chromedp.ID("search-button")),
		chromedp.WaitVisible(chromedp.CSS(`li.result[data-subject="alice"]`)),
	)
	st := read()
	if !slices.ContainsFunc(st.Results, func(r string) bool { return strings.Contains(r, "alice: ") && strings.Contains(r, "Berlin") }) {
		t.Errorf("search results %q do not show Alice in Berlin", st.Results)
	}

	// Open Alice: every slot, both axes, the decisions.
	run("open Alice", chromedp.Click(chromedp.CSS(`li.result[data-subject="alice"] button`)))
	st = waitView("alice", "now|now")
	if got := st.Current["lives_in"]; !strings.Contains(got, "Berlin") || strings.Contains(got, "Paris") || !strings.Contains(got, "contradicted") {
		t.Errorf("current lives_in %q: want Berlin, flagged as contradicted", got)
	}
	if got := st.SlotCurrent["lives_in"]; got != "Current: Berlin" {
		t.Errorf("lives_in card says %q", got)
	}
	// The supersedes edges are the reconciler's to choose (London, arriving late, may be retired by Paris or by
	// Berlin); the page must name the value the API names.
	london, _ := find(alice, "lives_in", "London")
	if len(london.SupersededBy) != 1 || len(paris.SupersededBy) != 1 {
		t.Fatalf("supersedes edges: London %+v, Paris %+v", london.SupersededBy, paris.SupersededBy)
	}
	objectOf := func(id string) string {
		for _, sl := range alice.Slots {
			for _, e := range sl.Timeline {
				if e.ClaimID == id {
					return e.Object
				}
			}
		}
		return "?"
	}
	for _, want := range []pageRow{
		{Slot: "lives_in", Object: "London", Status: "superseded", Valid: "2022-03-01 → 2024-01-10", Change: "superseded by " + objectOf(london.SupersededBy[0].ClaimID)},
		{Slot: "lives_in", Object: "Paris", Status: "superseded", Valid: "2024-01-10 → 2025-06-01", Change: "superseded by Berlin"},
		{Slot: "lives_in", Object: "Berlin", Status: "active", Valid: "2025-06-01 → now", Change: "contradicts Alice has never lived in Berlin."},
		{Slot: "not:lives_in", Object: "Berlin", Status: "active", Valid: "2025-07-01 → now", Change: "contradicts " + berlin.Text, Negated: true},
		{Slot: "role", Object: "engineer", Status: "active", Valid: "2024-01-01 → now"},
		{Slot: "role", Object: "manager", Status: "pending", Valid: "2025-01-01 → now", Change: "awaiting confirmation"},
		{Slot: "door_code", Object: "4512", Status: "active"},
	} {
		got, ok := st.row(want.Slot, want.Object)
		switch {
		case !ok:
			t.Errorf("no row for %s = %s", want.Slot, want.Object)
		case got.Status != want.Status || (want.Valid != "" && got.Valid != want.Valid) || !strings.Contains(got.Change, want.Change) || got.Negated != want.Negated:
			t.Errorf("%s = %s: status %q, valid %q, change %q, negated %v; want %q, %q, containing %q, %v",
				want.Slot, want.Object, got.Status, got.Valid, got.Change, got.Negated, want.Status, want.Valid, want.Change, want.Negated)
		}
	}
	// One agent each asserted these: no corroboration badge.
	for _, one := range [][2]string{{"lives_in", "Paris"}, {"lives_in", "Berlin"}, {"role", "engineer"}} {
		if r, ok := st.row(one[0], one[1]); ok && r.Corroboration != "" {
			t.Errorf("%s = %s, asserted by one agent, shows %q", one[0], one[1], r.Corroboration)
		}
	}
	if got := st.Current["role"]; !strings.Contains(got, "engineer") || strings.Contains(got, "manager") || !strings.Contains(got, "1 pending") {
		t.Errorf("current role %q: want engineer, with one change pending", got)
	}
	if got := st.Bars["lives_in"]; got[0] != 3 || got[1] < 3 {
		t.Errorf("lives_in charts have %v bars; want 3 on valid time and one per belief version (≥ 3) on transaction time", got)
	}
	// Paris was believed current, then superseded: two belief versions, the first retired when Berlin arrived.
	var parisVersions []pageRow
	for _, r := range st.Rows {
		if r.Slot == "lives_in" && r.Object == "Paris" {
			parisVersions = append(parisVersions, r)
		}
	}
	if len(parisVersions) != 2 || parisVersions[0].Status != "active" || !parisVersions[0].Retired || parisVersions[1].Status != "superseded" {
		t.Errorf("Paris's belief versions: %+v", parisVersions)
	}
	// Memory content is text, never markup.
	if nick, ok := st.row("nickname", markup); !ok || nick.Value != markup {
		t.Errorf("the nickname is not shown verbatim: %+v", nick)
	}
	if st.Images != 0 || st.InjectedNode {
		t.Errorf("content became markup: %d images, injected node %v", st.Images, st.InjectedNode)
	}

	// The decision behind Paris's last change, from the claim's detail.
	run("open Paris's detail", chromedp.Click(chromedp.CSS(`section.slot[data-slot="lives_in"] tr.held[data-object="Paris"]`)),
		chromedp.Poll[chromedp.Void](`document.getElementById('detail').dataset.claim === `+jsString(paris.ClaimID), chromedp.WithPollingTimeout(20*time.Second)))
	st = read()
	// The page names the claims a reason mentions by their values, so the reason is checked around its ids.
	wants := []string{"Alice lives in Paris", lastDecision.Operator + " → " + lastDecision.Outcome, "Asserted by planner", "supersedes London", "superseded by Berlin"}
	for _, part := range regexp.MustCompile(`[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}`).Split(lastDecision.Reason, -1) {
		if part = strings.TrimSpace(part); part != "" {
			wants = append(wants, part)
		}
	}
	for _, want := range wants {
		if !strings.Contains(st.Detail, want) {
			t.Errorf("claim detail does not show %q:\n%s", want, st.Detail)
		}
	}
	screenshot("timeline-alice.png")

	// Valid time as of 2024-06-01: Alice lived in Paris.
	run("as of 2024-06-01", chromedp.Click(chromedp.ID("detail-close")), chromedp.SendKeys(chromedp.ID("as-of"), "2024-06-01"), chromedp.Click(chromedp.ID("asof-apply")))
	st = waitView("alice", "2024-06-01T00:00:00Z|now")
	if got := st.Current["lives_in"]; !strings.Contains(got, "Paris") || strings.Contains(got, "Berlin") {
		t.Errorf("as of 2024-06-01, current lives_in %q: want Paris", got)
	}
	// Transaction time: what memory believed before Berlin was recorded — Paris, current, and no Berlin or London yet.
	known := believedParis.UTC().Format(time.RFC3339Nano)
	run("known at "+known, chromedp.Click(chromedp.ID("as-of-now")), chromedp.WaitVisible(chromedp.CSS(`#subject[data-view="now|now"]`)),
		chromedp.SendKeys(chromedp.ID("known-at"), known), chromedp.Click(chromedp.ID("asof-apply")))
	st = waitView("alice", "now|"+known)
	if got := st.Current["lives_in"]; !strings.Contains(got, "Paris") || strings.Contains(got, "Berlin") {
		t.Errorf("known at %s, current lives_in %q: want Paris", known, got)
	}
	if r, ok := st.row("lives_in", "Paris"); !ok || r.Status != "active" {
		t.Errorf("known at %s, Paris is %+v; want active", known, r)
	}
	for _, later := range []string{"Berlin", "London"} {
		if _, ok := st.row("lives_in", later); ok {
			t.Errorf("known at %s, the page shows %s, recorded later", known, later)
		}
	}
	screenshot("timeline-alice-known-at.png")

	// A disputed slot: both sides, flagged.
	run("open Project Apollo", chromedp.Click(chromedp.ID("known-at-now")), chromedp.WaitVisible(chromedp.CSS(`#subject[data-view="now|now"]`)),
		chromedp.SendKeys(chromedp.ID("open-subject"), "Project Apollo"), chromedp.Click(chromedp.ID("open-button")))
	st = waitView("project_apollo", "now|now")
	if got := st.Current["launch_date"]; !strings.Contains(got, "March 3") || !strings.Contains(got, "March 10") || !strings.Contains(got, "disputed") {
		t.Errorf("Project Apollo's launch date shows %q: want both values, disputed", got)
	}
	for _, o := range []string{"March 3", "March 10"} {
		if r, ok := st.row("launch_date", o); !ok || r.Status != "disputed" {
			t.Errorf("launch date %s: %+v, want disputed", o, r)
		}
	}
	if !strings.HasPrefix(st.SlotCurrent["launch_date"], "Disputed between") {
		t.Errorf("launch date card says %q", st.SlotCurrent["launch_date"])
	}
	screenshot("timeline-apollo.png")

	// Bob's move to Lisbon, said by scheduler and asserted by planner (twice): every belief version of the
	// fact says two agents.
	run("open Bob", chromedp.SetValue(chromedp.ID("open-subject"), "Bob"), chromedp.Click(chromedp.ID("open-button")))
	st = waitView("bob", "now|now")
	if got := st.Current[lisbonSlot.SlotKey]; !strings.Contains(got, "Lisbon") {
		t.Errorf("Bob's current %s is %q, want Lisbon", lisbonSlot.SlotKey, got)
	}
	lisbonRows := 0
	for _, r := range st.Rows {
		if r.Slot != lisbonSlot.SlotKey || r.Object != "Lisbon" {
			continue
		}
		lisbonRows++
		if r.Corroboration != "corroborated by 2 agents" {
			t.Errorf("Bob lives in Lisbon, v%s (%s): corroboration badge %q, want \"corroborated by 2 agents\"", r.Version, r.Status, r.Corroboration)
		}
	}
	if lisbonRows < 2 {
		t.Errorf("Bob's %s shows %d Lisbon rows; want scheduler's claim and planner's", lisbonSlot.SlotKey, lisbonRows)
	}
	if r, ok := st.row("favourite_drink", "tea"); !ok || r.Corroboration != "" {
		t.Errorf("Bob's favourite drink (planner alone): %+v", r)
	}
	screenshot("timeline-bob.png")

	// The page adds no authority: read as scheduler, Alice has no door code (planner's private claim).
	run("act as scheduler", chromedp.SetValue(chromedp.ID("agent"), "scheduler"), chromedp.Click(chromedp.ID("connect-button")),
		chromedp.SetValue(chromedp.ID("open-subject"), "Alice"), chromedp.Click(chromedp.ID("open-button")),
		chromedp.Poll[chromedp.Void](`(() => { const s = document.getElementById('subject'); return s.dataset.subject === 'alice' && s.dataset.agent === 'scheduler' && !s.hasAttribute('aria-busy'); })()`,
			chromedp.WithPollingTimeout(30*time.Second)))
	st = read()
	if _, ok := st.row("lives_in", "Berlin"); !ok {
		t.Errorf("scheduler does not see Alice's shared claims")
	}
	if _, ok := st.row("door_code", "4512"); ok || st.Current["door_code"] != "" {
		t.Errorf("scheduler sees planner's private door code")
	}
}

func day(s string) *time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return &t
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
