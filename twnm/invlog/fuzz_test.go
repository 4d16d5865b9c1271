package invlog

import "testing"

// FuzzToolBenchEvent checks that no message, however cut or malformed, makes the parser panic.
func FuzzToolBenchEvent(f *testing.F) {
	for _, s := range []string{
		`{'name': 'geo', 'arguments': '{"city": "Paris"}', 'response': '{"error": "", "response": "{\\"lat\\": 48.85}"}'}`,
		`{'name': 'geo', 'arguments': '{\n  "vin": "WBAWY32040L678750"\n}', 'response': '{"error": "Timeou`,
		`{'name': 'a\x41\u00e9', 'k': None}`,
		`{'name': "it's", 'arguments': '`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		_, _, _ = toolBenchEvent(msg)
	})
}

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
