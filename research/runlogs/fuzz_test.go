package runlogs

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
