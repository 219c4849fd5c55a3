package llmextract

import (
	"errors"
	"testing"
)

func TestParseTolerant(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
		err  bool
	}{
		{"canonical", `{"claims":[{"turn":0,"subject":"A","predicate":"p","object":"o"}]}`, 1, false},
		{"bare array", `[{"turn":"1","subject":"A","predicate":"p","object":"o"}]`, 1, false},
		{"other key", `{"facts":[{"subject":"A","predicate":"p","object":"o"}]}`, 1, false},
		{"nested", `{"result":{"claims":[{"subject":"A","predicate":"p","object":"o"}]}}`, 1, false},
		{"single object", `{"subject":"A","predicate":"p","object":"o"}`, 1, false},
		{"empty list", `{"claims":[]}`, 0, false},
		{"incomplete items skipped", `{"claims":[{"subject":"A"},{"subject":"A","predicate":"p","object":7},"junk",null]}`, 1, false},
		{"no list", `{"answer":"none"}`, 0, true},
		{"not json", `claims: none`, 0, true},
		{"scalar", `42`, 0, true},
	}
	for _, tt := range tests {
		items, err := Parse([]byte(tt.in))
		if (err != nil) != tt.err || len(items) != tt.want {
			t.Errorf("%s: %d items, err %v; want %d items, error %v", tt.name, len(items), err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, ErrInvalidOutput) {
			t.Errorf("%s: error %v does not wrap ErrInvalidOutput", tt.name, err)
		}
	}
}

func TestParseFieldVariants(t *testing.T) {
	items, err := Parse([]byte(`[{"turn_index":"D1:3","Subject":"A","relation":"p","value":"o","functional":"yes","sequence":"12","confidence":"85%","date":"2023-05-01"}]`))
	if err != nil || len(items) != 1 {
		t.Fatalf("items %+v err %v", items, err)
	}
	it := items[0]
	if it.Turn != 3 || it.Subject != "A" || it.Predicate != "p" || it.Object != "o" || it.Functional == nil || !*it.Functional ||
		it.Sequence == nil || *it.Sequence != 12 || it.Confidence == nil || *it.Confidence != 0.85 || it.ValidFrom != "2023-05-01" {
		t.Errorf("item %+v", it)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{goodAnswer, `[]`, `{"claims":[{"turn":1e99,"subject":"a","predicate":"b","object":"c","confidence":"NaN"}]}`,
		`{"a":[1],"b":[2]}`, `{"claims":[{"sequence":"x9y","subject":"a","predicate":"b","object":"c"}]}`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		items, err := Parse(b)
		if err != nil {
			if !errors.Is(err, ErrInvalidOutput) {
				t.Fatalf("error %v does not wrap ErrInvalidOutput", err)
			}
			return
		}
		if len(items) > maxItems {
			t.Fatalf("%d items", len(items))
		}
		for _, it := range items {
			if it.Subject == "" || it.Predicate == "" || it.Object == "" || it.Turn < -1 {
				t.Fatalf("bad item %+v", it)
			}
			if it.Confidence != nil && (*it.Confidence < 0 || *it.Confidence > 1) {
				t.Fatalf("confidence %v", *it.Confidence)
			}
		}
	})
}
