package toolcall

import (
	"encoding/json"
	"testing"

	"github.com/naviagent/navi/toolspec"
)

// FuzzDecodeOutput feeds arbitrary tool answers to what the client does with a body: decode
// it, expose the declared nested outputs, and summarize it for the history. Nothing panics;
// a decoded output and its summary encode as JSON, and the summary stays within its limit.
// Run with: go test -fuzz FuzzDecodeOutput ./toolcall
func FuzzDecodeOutput(f *testing.F) {
	for _, seed := range []string{
		`{"results": [{"id": 42, "title": "x"}], "count": 1}`,
		`[1, 2, 3]`, `"text"`, `12345678901234567890`, ``, `{"a": 1} {"b": 2}`,
		`{"cast": [], "id": null}`, `{"results": "not a list"}`, "{\"s\": \"\xff\xfe\"}",
	} {
		f.Add([]byte(seed), 64)
	}
	outputs := []toolspec.Param{{Name: "id", Path: "results[].id"}, {Name: "cast_item_id", Path: "cast[].id"}, {Name: "deep", Path: "a.b[].c"}}
	f.Fuzz(func(t *testing.T, body []byte, limit int) {
		out, err := decodeOutput(body)
		if err != nil {
			return
		}
		exposeNested(out, outputs)
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("decoded output does not encode: %v", err)
		}
		if limit < 2 || limit > 1<<16 {
			return
		}
		sum := summarize(out, limit)
		b, err := json.Marshal(sum)
		if err != nil {
			t.Fatalf("summary does not encode: %v", err)
		}
		if len(b) > limit {
			t.Fatalf("summary of %d bytes over its limit of %d", len(b), limit)
		}
	})
}
