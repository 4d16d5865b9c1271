package invlog

import "testing"

// FuzzLink checks that linking arbitrary values never panics.
func FuzzLink(f *testing.F) {
	f.Add("abc", `[{"a": 1.5e400}]`, "1.5e400")
	f.Add("x", `{"k": [null, true, "Tok"]}`, "tok")
	f.Fuzz(func(t *testing.T, in0, out1, in2 string) {
		run := Run{Events: []Event{
			{API: "A", Inputs: []Value{{Param: "p", Value: in0}}, Outputs: []Value{{Param: "o", Value: in0}}},
			{API: "B", Outputs: []Value{{Param: "o", Value: out1}}},
			{API: "C", Inputs: []Value{{Param: "p", Value: in2}}},
		}}
		Link(&run)
		_ = Transitions(&run)
	})
}
