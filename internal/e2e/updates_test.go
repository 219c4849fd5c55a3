package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/app/apptest"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
)

// TestConversationalUpdates is what a new user tries over HTTP with no LLM configured: a fact said in one
// session and changed in words months later. Memory must answer with the new value, never present the old one
// as current, and retire only the part of a compound statement that changed.
func TestConversationalUpdates(t *testing.T) {
	sys := apptest.Start(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := client.New(sys.BaseURL, "kim-assistant")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) *time.Time {
		v, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	turns := []api.TurnInput{
		{TurnID: "a1", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "My sister Emma just started working at Google as a data scientist."},
		{TurnID: "a2", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "I live in Portland with my two cats, Miso and Tofu."},
		{TurnID: "b1", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "Big news: Emma left Google last month and joined Anthropic."},
		{TurnID: "b2", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "We moved to Seattle in May."},
		{TurnID: "a3", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "My brother works at Deloitte."},
		{TurnID: "b3", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "My brother quit Deloitte and joined KPMG."},
		// A count restated as the count: the number ordered changes, the number baked does not.
		{TurnID: "a4", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "I ordered 24 cupcakes."},
		{TurnID: "a5", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "I baked 12 cupcakes."},
		{TurnID: "b4", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "Update: I've ordered 30 cupcakes."},
		// A new one of what one has one of, and a thing replaced by another, retire the old value.
		{TurnID: "a6", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "My dentist is Dr. Patel."},
		{TurnID: "b5", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "Dr. Patel retired, so my new dentist is Dr. Huang."},
		{TurnID: "a7", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "My laptop is a Dell XPS."},
		{TurnID: "b6", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "I replaced my laptop with a MacBook Air."},
		// A thing lost to a theft: it is no longer what Kim rides, and what she bought instead is.
		{TurnID: "a8", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "I ride a Specialized road bike to work."},
		{TurnID: "b7", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "Someone stole my Specialized, so I bought a Trek hybrid bike."},
		// One sentence, two facts; the later turn replaces one of them and keeps the other.
		{TurnID: "a9", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "My cousin Nadia is studying architecture at Glasgow."},
		{TurnID: "b8", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "Nadia dropped out of architecture and switched to nursing, still at Glasgow."},
		// An event moved, named without its owner the second time: "the wedding" can only be the brother's.
		{TurnID: "a10", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "My brother's wedding is on 14 September."},
		{TurnID: "b9", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "Update: the wedding has been pushed back to the 5th of October because the venue flooded."},
		// A move said of the person, the event unnamed: the latest event said before it moves.
		{TurnID: "a11", SessionID: "jan", Role: "user", Speaker: "Kim", OccurredAt: at("2024-01-10"),
			Content: "I've got a dentist appointment on the 3rd of July."},
		{TurnID: "b10", SessionID: "jun", Role: "user", Speaker: "Kim", OccurredAt: at("2024-06-20"),
			Content: "The surgery rang and moved me to July 10th, the hygienist is off."},
	}
	if _, err := c.Turns(ctx, "family", api.TurnsRequest{Turns: turns}); err != nil {
		t.Fatal(err)
	}
	answer := func(q string) string {
		res, err := c.Answer(ctx, "family", api.AnswerRequest{Question: q})
		if err != nil {
			t.Fatal(err)
		}
		return res.Answer
	}
	eventually(t, 2*time.Minute, "the June updates are answered", func() bool {
		return answer("Where does Emma work?") == "Anthropic" && answer("Where does Kim live?") == "Seattle"
	})

	// Asked for Kim, the first person is Kim: her brother is the one she spoke of, and she lives in Seattle.
	askedByKim := func(q string) string {
		res, err := c.Answer(ctx, "family", api.AnswerRequest{Question: q, Asker: "Kim"})
		if err != nil {
			t.Fatal(err)
		}
		return res.Answer
	}
	eventually(t, 2*time.Minute, "questions in Kim's first person are answered", func() bool {
		return askedByKim("Where does my brother work?") == "KPMG" && askedByKim("Where do I live?") == "Seattle"
	})

	sr, err := c.Search(ctx, "family", api.SearchRequest{Query: "Where does Emma work?"})
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range sr.Claims {
		if strings.Contains(cl.Object, "Google") && cl.Status == "active" {
			t.Errorf("search shows Google as current: %+v", cl)
		}
	}
	if !hasObject(*sr, "Anthropic") {
		t.Errorf("search for Emma's work does not show Anthropic: %+v", sr.Claims)
	}

	// The move retired Portland but not the cats. The January turns are extracted apart from the June ones, so
	// the cats' claims may reach the projection after the updates: wait until the search shows both names (in
	// whatever status), then check they are current.
	var cats *api.SearchResponse
	eventually(t, 2*time.Minute, "the cats' claims in the projection", func() bool {
		cats, err = c.Search(ctx, "family", api.SearchRequest{Query: "What are the names of Kim's cats?", IncludeHistory: true})
		if err != nil {
			t.Fatal(err)
		}
		return hasObject(*cats, "Miso") && hasObject(*cats, "Tofu")
	})
	for _, name := range []string{"Miso", "Tofu"} {
		found := false
		for _, cl := range cats.Claims {
			if cl.Object == name && cl.Status == "active" {
				found = true
			}
		}
		if !found {
			t.Errorf("cat %s is not current after the move: %+v", name, cats.Claims)
		}
	}
	// Nadia still studies at Glasgow, and the claim that says so keeps its sentence, which names the subject
	// she left: the context marks it there ("studying architecture (former) at Glasgow").
	var school *api.SearchResponse
	eventually(t, 2*time.Minute, "Nadia's change of subject in the projection", func() bool {
		school, err = c.Search(ctx, "family", api.SearchRequest{Query: "Which university does Nadia attend?"})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(school.Context, "nursing") && strings.Contains(school.Context, "studying architecture")
	})
	for _, line := range strings.Split(school.Context, "\n") {
		if strings.Contains(line, "studying architecture") && !strings.Contains(line, "architecture (former) at Glasgow") {
			t.Errorf("a context line presents architecture as what Nadia studies: %q", line)
		}
	}
	// The brother's wedding was moved: the moved date answers, and no context line presents the first one as
	// current.
	var wedding, dentistDay string
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last answers: wedding %q, dentist appointment %q", wedding, dentistDay)
		}
	})
	eventually(t, 2*time.Minute, "the brother's wedding and the dentist moved", func() bool {
		wedding, dentistDay = answer("When is Kim's brother's wedding?"), answer("When is Kim's dentist appointment?")
		return wedding == "5 October 2024" && dentistDay == "10 July 2024"
	})
	weddingCtx, err := c.Search(ctx, "family", api.SearchRequest{Query: "When is Kim's brother's wedding?"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(weddingCtx.Context, "5 October 2024") {
		t.Errorf("the search context does not give the moved date: %q", weddingCtx.Context)
	}
	for _, line := range strings.Split(weddingCtx.Context, "\n") {
		if strings.Contains(line, "14 September") && !strings.Contains(line, "(former)") {
			t.Errorf("a context line presents the first date as current: %q", line)
		}
	}
	// The restated count replaced the first one; the count of another verb stayed.
	var cakes *api.SearchResponse
	eventually(t, 2*time.Minute, "the cupcake counts in the projection", func() bool {
		cakes, err = c.Search(ctx, "family", api.SearchRequest{Query: "How many cupcakes did Kim order or bake?", IncludeHistory: true})
		if err != nil {
			t.Fatal(err)
		}
		return hasObject(*cakes, "30 cupcakes") && hasObject(*cakes, "24 cupcakes") && hasObject(*cakes, "12 cupcakes")
	})
	for _, cl := range cakes.Claims {
		current := cl.Status == "active"
		switch cl.Object {
		case "24 cupcakes":
			if current {
				t.Errorf("the first count of cupcakes ordered is still current: %+v", cl)
			}
		case "30 cupcakes", "12 cupcakes":
			if !current {
				t.Errorf("count %q is not current: %+v", cl.Object, cl)
			}
		}
	}
	if got := answer("How many cupcakes did Kim order?"); got != "30 cupcakes" {
		t.Errorf("How many cupcakes did Kim order? = %q, want 30 cupcakes", got)
	}
	if got := answer("How many cupcakes did Kim bake?"); got != "12 cupcakes" {
		t.Errorf("How many cupcakes did Kim bake? = %q, want 12 cupcakes", got)
	}
	// The June turns may reach the projection after the checks above: wait until both are answered as June
	// says ("Dr. Huang" alone, not beside Dr. Patel; the MacBook, not the Dell).
	var dentist, laptop, bike string
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last answers: dentist %q, laptop %q, bike %q", dentist, laptop, bike)
		}
	})
	eventually(t, 2*time.Minute, "Kim's new dentist is Dr. Huang, her laptop a MacBook Air and her bike the Trek", func() bool {
		dentist, laptop, bike = answer("Who is Kim's dentist?"), answer("What is Kim's laptop?"), answer("What bike does Kim ride?")
		return dentist == "Dr. Huang" && laptop == "a MacBook Air" && bike == "a Trek hybrid bike"
	})
	home, err := c.Search(ctx, "family", api.SearchRequest{Query: "Where does Kim live?"})
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range home.Claims {
		if strings.Contains(cl.Object, "Portland") && cl.Status == "active" {
			t.Errorf("search shows Portland as current: %+v", cl)
		}
	}
}
