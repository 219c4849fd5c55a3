// Package wordnet reads the noun database of Princeton WordNet 3.0 — the files Debian's wordnet-base package
// installs under /usr/share/wordnet — for what kind of thing a noun names: the hypernyms (and, for names, the
// instance hypernyms) of its senses. WordNet's licence lets its data be used and copied with its notice; Mneme
// reads the installed files in place and ships none of them.
package wordnet

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// DefaultDir is where Debian and Ubuntu install the database (package wordnet-base).
const DefaultDir = "/usr/share/wordnet"

// Nouns is WordNet's noun hierarchy: each lemma's synsets in sense order (the most frequent first) and each
// synset's hypernyms. It is read-only and safe for concurrent use.
type Nouns struct {
	senses map[string][]uint32
	up     map[uint32][]uint32
	// names maps a name of several words (its index key) to the way WordNet writes it: the names of
	// instances WordNet capitalizes and writes in no other way ("united_states_of_america" → "United States of
	// America").
	names map[string]string
}

// Kind names a synset by a lemma and its sense number (1-based, as WordNet numbers senses): {"sport", 1} is
// "an active diversion requiring physical exertion and competition".
type Kind struct {
	Lemma string
	Sense int
}

// Open reads index.noun and data.noun from dir.
func Open(dir string) (*Nouns, error) {
	n := &Nouns{senses: map[string][]uint32{}, up: map[uint32][]uint32{}, names: map[string]string{}}
	if err := readFile(filepath.Join(dir, "index.noun"), n.indexLine); err != nil {
		return nil, err
	}
	lower := map[string]bool{}
	if err := readFile(filepath.Join(dir, "data.noun"), func(s string) error { return n.dataLine(s, lower) }); err != nil {
		return nil, err
	}
	for k := range lower {
		delete(n.names, k)
	}
	if len(n.senses) == 0 || len(n.up) == 0 {
		return nil, fmt.Errorf("wordnet: %s holds no nouns", dir)
	}
	return n, nil
}

func readFile(path string, line func(string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("wordnet: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	for no := 1; ; no++ {
		s, err := r.ReadString('\n')
		if s != "" && !strings.HasPrefix(s, "  ") {
			// Lines starting with two spaces are the licence header.
			if perr := line(strings.TrimRight(s, "\r\n")); perr != nil {
				return fmt.Errorf("wordnet: %s line %d: %w", path, no, perr)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("wordnet: %s: %w", path, err)
		}
	}
}

// indexLine reads "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...".
func (n *Nouns) indexLine(s string) error {
	f := strings.Fields(s)
	if len(f) < 6 {
		return fmt.Errorf("index entry has %d fields, want at least 6", len(f))
	}
	synsets, err1 := strconv.Atoi(f[2])
	pointers, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || synsets < 1 || pointers < 0 || len(f) != 6+pointers+synsets {
		return fmt.Errorf("index entry %q: counts do not match its fields", f[0])
	}
	offs := make([]uint32, 0, synsets)
	for _, o := range f[6+pointers:] {
		v, err := strconv.ParseUint(o, 10, 32)
		if err != nil {
			return fmt.Errorf("index entry %q: offset %q: %w", f[0], o, err)
		}
		offs = append(offs, uint32(v))
	}
	n.senses[f[0]] = offs
	return nil
}

// dataLine reads "offset lex_filenum ss_type w_cnt word lex_id... p_cnt [symbol offset pos source/target]... | gloss"
// and keeps the noun hypernym pointers ("@", and "@i" for an instance: Paris is an instance of a national
// capital), and the written form of an instance's names of several words; lower collects the keys of such
// words written in lower case anywhere (which are no names only).
func (n *Nouns) dataLine(s string, lower map[string]bool) error {
	if i := strings.Index(s, " | "); i >= 0 {
		s = s[:i]
	}
	f := strings.Fields(s)
	if len(f) < 5 {
		return fmt.Errorf("data entry has %d fields, want at least 5", len(f))
	}
	off, err := strconv.ParseUint(f[0], 10, 32)
	if err != nil {
		return fmt.Errorf("data entry offset %q: %w", f[0], err)
	}
	words, err := strconv.ParseUint(f[3], 16, 8)
	if err != nil {
		return fmt.Errorf("data entry %d: word count %q: %w", off, f[3], err)
	}
	i := 4 + 2*int(words)
	if i >= len(f) {
		return fmt.Errorf("data entry %d: %d words overrun the entry", off, words)
	}
	pointers, err := strconv.Atoi(f[i])
	if err != nil || pointers < 0 || i+1+4*pointers > len(f) {
		return fmt.Errorf("data entry %d: pointer count %q does not match its fields", off, f[i])
	}
	var up []uint32
	instance := false
	for k := 0; k < pointers; k++ {
		p := f[i+1+4*k : i+5+4*k]
		if (p[0] != "@" && p[0] != "@i") || p[2] != "n" {
			continue
		}
		v, err := strconv.ParseUint(p[1], 10, 32)
		if err != nil {
			return fmt.Errorf("data entry %d: pointer offset %q: %w", off, p[1], err)
		}
		up = append(up, uint32(v))
		instance = instance || p[0] == "@i"
	}
	n.up[uint32(off)] = up
	for w := 0; w < int(words); w++ {
		word := f[4+2*w]
		if !strings.Contains(word, "_") {
			continue
		}
		k := strings.ToLower(word)
		switch {
		case word == k:
			lower[k] = true
		case instance:
			n.names[k] = strings.ReplaceAll(word, "_", " ")
		}
	}
	return nil
}

// Name returns how WordNet writes a name of several words typed in lower case ("new york" → "New York",
// "united states of america" → "United States of America"): the name of an instance (a place, a person, an
// organization) that WordNet writes with capitals and in no other way. Single words are not looked up: most
// of them are common nouns as well ("china", "turkey").
func (n *Nouns) Name(phrase string) (string, bool) {
	k := key(phrase)
	if !strings.Contains(k, "_") {
		return "", false
	}
	w, ok := n.names[k]
	return w, ok
}

// key is a noun as the index spells it: lower case, words joined by "_".
func key(noun string) string {
	return strings.Join(strings.Fields(strings.ToLower(noun)), "_")
}

// offsets are the synsets of a noun's senses, in WordNet's order. English writes many compounds open,
// hyphenated or closed alike ("hip hop", "hip-hop"; "e mail", "e-mail"), and WordNet lists one spelling, so
// the other is looked up when the one typed is not listed.
func (n *Nouns) offsets(noun string) []uint32 {
	k := key(noun)
	if offs, ok := n.senses[k]; ok {
		return offs
	}
	if strings.Contains(k, "_") {
		return n.senses[strings.ReplaceAll(k, "_", "-")]
	}
	if strings.Contains(k, "-") {
		return n.senses[strings.ReplaceAll(k, "-", "_")]
	}
	return nil
}

// Known reports a noun WordNet lists (in any of its open or hyphenated spellings).
func (n *Nouns) Known(noun string) bool {
	return len(n.offsets(noun)) > 0
}

// Is reports whether one of the noun's first senses (at most senses of them; all when senses < 1) is the kind
// or falls under it, through hypernyms and instance hypernyms.
func (n *Nouns) Is(noun string, senses int, kind Kind) bool {
	target, ok := n.synset(kind)
	if !ok {
		return false
	}
	offs := n.offsets(noun)
	if senses > 0 && len(offs) > senses {
		offs = offs[:senses]
	}
	seen := map[uint32]bool{}
	stack := append([]uint32(nil), offs...)
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if o == target {
			return true
		}
		if seen[o] {
			continue
		}
		seen[o] = true
		stack = append(stack, n.up[o]...)
	}
	return false
}

func (n *Nouns) synset(k Kind) (uint32, bool) {
	offs := n.senses[key(k.Lemma)]
	if k.Sense < 1 || k.Sense > len(offs) {
		return 0, false
	}
	return offs[k.Sense-1], true
}

var (
	defaultOnce  sync.Once
	defaultNouns *Nouns
	defaultErr   error
	configMu     sync.Mutex
	configured   string
)

// DirEnv names the environment variable of the database's directory.
const DirEnv = "MNEME_WORDNET_DIR"

// Configure sets the directory Default opens (as DirEnv does; "off" turns the database off). It takes effect
// only before Default's first call.
func Configure(dir string) {
	configMu.Lock()
	defer configMu.Unlock()
	configured = dir
}

// Default opens the database once per process: at the directory Configure set, else $MNEME_WORDNET_DIR, else
// DefaultDir. It returns nil and the reason when it is not installed or cannot be read, or is turned off.
func Default() (*Nouns, error) {
	defaultOnce.Do(func() {
		configMu.Lock()
		dir := configured
		configMu.Unlock()
		if dir == "" {
			dir = os.Getenv(DirEnv)
		}
		switch dir {
		case "off":
			defaultErr = errors.New("wordnet: turned off (MNEME_WORDNET_DIR=off)")
			return
		case "":
			dir = DefaultDir
		}
		defaultNouns, defaultErr = Open(dir)
	})
	return defaultNouns, defaultErr
}
