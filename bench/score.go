package bench

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"

	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

// Tolerance is the absolute tolerance of numeric comparisons. It is absolute, not relative,
// because a relative one would accept an off-by-one count of a large number (a population);
// results cross Temporal as JSON, which round-trips a float64 exactly, so the tolerance only
// has to absorb arithmetic noise in the tools, not a loss of precision on the way.
const Tolerance = 1e-9

// Completed reports whether a run reached its answer: status "answered".
func Completed(r workflows.QueryResult) bool { return r.Status == workflows.StatusAnswered }

// Succeeded reports whether a run solved the task: it completed, and one API of its chain
// returned every expected field with an equal value (see Equal). A task without expected
// fields is solved by any completed run, since there is nothing more to check.
//
// Any API of the chain is accepted, not only the last, because the chain records every
// successful call in order: a run that obtained the answer from the final API and then made
// one more call (a redundant check, a call after a recombination) still holds the answer,
// and the agent's answer text is built from those results. The fields must all come from
// one API, so an answer cannot be stitched together from several APIs' outputs, and the
// expected fields name the final gold API's outputs, which intermediate APIs rarely share.
//
// A compound task (Parts) is solved when every part is (see Intents).
func Succeeded(t toolworld.Task, r workflows.QueryResult) bool {
	solved, of := Intents(t, r)
	return solved == of
}

// Intents reports how many of the task's questions the run answered, of how many: one for a
// task of one question, len(t.Parts) for a compound task. A question is answered when the run
// completed and one API of its chain returned every field of that question's expected answer.
func Intents(t toolworld.Task, r workflows.QueryResult) (solved, of int) {
	expected := []map[string]any{t.Expected}
	if len(t.Parts) > 0 {
		expected = expected[:0]
		for _, p := range t.Parts {
			expected = append(expected, p.Expected)
		}
	}
	if !Completed(r) {
		return 0, len(expected)
	}
	for _, want := range expected {
		if len(want) == 0 || slices.ContainsFunc(r.Chain, func(api string) bool { return hasAll(r.Results[api], want) }) {
			solved++
		}
	}
	return solved, len(expected)
}

// hasAll reports whether got holds every field of want with an equal value.
func hasAll(got, want map[string]any) bool {
	if got == nil {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || !Equal(g, w) {
			return false
		}
	}
	return true
}

// Equal compares two decoded values: numbers of any Go numeric type (or json.Number) as
// float64 within Tolerance, strings and booleans exactly, slices element by element and
// maps key by key. A number never equals a string, even "3" and 3: the tool world's outputs
// are typed and a type change is a wrong answer.
func Equal(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && closeEnough(fa, fb)
	}
	if _, ok := number(b); ok {
		return false
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !va.IsValid() || !vb.IsValid() {
		return !va.IsValid() && !vb.IsValid()
	}
	switch {
	case isList(va) && isList(vb):
		if va.Len() != vb.Len() {
			return false
		}
		for i := range va.Len() {
			if !Equal(va.Index(i).Interface(), vb.Index(i).Interface()) {
				return false
			}
		}
		return true
	case va.Kind() == reflect.Map && vb.Kind() == reflect.Map:
		if va.Len() != vb.Len() {
			return false
		}
		for _, k := range va.MapKeys() {
			w := vb.MapIndex(k)
			if !w.IsValid() || !Equal(va.MapIndex(k).Interface(), w.Interface()) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func isList(v reflect.Value) bool { return v.Kind() == reflect.Slice || v.Kind() == reflect.Array }

// number converts any numeric value to float64; results decoded from Temporal's JSON come
// as float64 while tasks generated in process hold ints.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	case float32:
		return float64(n), true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	}
	return 0, false
}

func closeEnough(a, b float64) bool { return a == b || math.Abs(a-b) <= Tolerance }
