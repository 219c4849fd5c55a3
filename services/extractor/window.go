package extractor

import (
	"time"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/tokens"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// turnOverheadTokens approximates what a turn costs in a prompt besides its content (speaker, time, index).
const turnOverheadTokens = 12

// held is a decoded turn waiting in a window, with the delivery to settle once its claims are published.
type held struct {
	d      *bus.Delivery
	turn   event.TurnAcceptedV1
	tokens int
}

// batch is a closed window ready for extraction.
type batch struct {
	window extract.Window
	items  []held
}

type openWindow struct {
	ws, session string
	items       []held
	tokens      int
	last        time.Time
}

// windower groups turns of each session into windows bounded by a token budget. It is not safe for
// concurrent use; the service's collector goroutine owns it.
type windower struct {
	budget  int
	counter *tokens.Counter
	open    map[string]*openWindow
	order   []string // session keys in order of first arrival, so flushing is deterministic
}

func newWindower(budget int, counter *tokens.Counter) *windower {
	return &windower{budget: budget, counter: counter, open: map[string]*openWindow{}}
}

func sessionKey(t event.TurnAcceptedV1) string {
	return t.Workspace + "\x00" + t.AgentID + "\x00" + t.SessionID
}

// add puts a turn into its session's window. It returns the windows that closed: the session's previous
// window when the turn would push it over budget, and the new one when the turn alone reaches the budget.
func (w *windower) add(d *bus.Delivery, t event.TurnAcceptedV1, now time.Time) []batch {
	h := held{d: d, turn: t, tokens: w.counter.Count(t.Content) + turnOverheadTokens}
	key := sessionKey(t)
	var out []batch
	ow := w.open[key]
	if ow != nil && ow.tokens+h.tokens > w.budget {
		out = append(out, w.close(key))
		ow = nil
	}
	if ow == nil {
		ow = &openWindow{ws: t.Workspace, session: t.SessionID}
		w.open[key] = ow
		w.order = append(w.order, key)
	}
	ow.items = append(ow.items, h)
	ow.tokens += h.tokens
	ow.last = now
	if ow.tokens >= w.budget {
		out = append(out, w.close(key))
	}
	return out
}

// idle closes the windows that received nothing for at least d.
func (w *windower) idle(now time.Time, d time.Duration) []batch {
	var out []batch
	for _, key := range append([]string(nil), w.order...) {
		if ow := w.open[key]; ow != nil && now.Sub(ow.last) >= d {
			out = append(out, w.close(key))
		}
	}
	return out
}

// all closes every open window.
func (w *windower) all() []batch {
	var out []batch
	for _, key := range append([]string(nil), w.order...) {
		out = append(out, w.close(key))
	}
	return out
}

// held returns the number of turns waiting in open windows.
func (w *windower) held() int {
	n := 0
	for _, ow := range w.open {
		n += len(ow.items)
	}
	return n
}

func (w *windower) close(key string) batch {
	ow := w.open[key]
	delete(w.open, key)
	for i, k := range w.order {
		if k == key {
			w.order = append(w.order[:i], w.order[i+1:]...)
			break
		}
	}
	b := batch{window: extract.Window{Workspace: ow.ws, SessionID: ow.session}, items: ow.items}
	seen := make(map[string]bool, len(ow.items))
	for _, h := range ow.items {
		// A turn delivered twice (republished under another message id) is extracted once; both
		// messages are acknowledged with the window.
		if seen[h.turn.TurnID] {
			continue
		}
		seen[h.turn.TurnID] = true
		b.window.Turns = append(b.window.Turns, h.turn)
	}
	return b
}
