//go:build zz

package catalogs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestZZDump(t *testing.T) {
	for _, p := range strings.Split(os.Getenv("SPECS"), ",") {
		cat, _, err := Load(p, "")
		if err != nil {
			t.Log(p, err)
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# catalog %s (%d APIs) from %s\n", cat.Name, len(cat.APIs), p)
		for _, a := range cat.APIs {
			m := ""
			if a.Endpoint != nil {
				m = a.Endpoint.Method + " " + a.Endpoint.Path
			}
			fmt.Fprintf(&b, "\n## %s  [%s]\n%s\n", a.Name, m, strings.TrimSpace(a.Description))
			for _, in := range a.Inputs {
				fmt.Fprintf(&b, "  in  %s (%s, required=%v): %s\n", in.Name, in.Type, in.Required, in.Description)
			}
			for _, o := range a.Outputs {
				fmt.Fprintf(&b, "  out %s %s (%s)\n", o.Name, o.Path, o.Type)
			}
		}
		name := filepath.Base(filepath.Dir(p))
		os.WriteFile("/tmp/specs/"+name+".txt", []byte(b.String()), 0o644)
		t.Log(p, cat.Name, len(cat.APIs))
	}
}
