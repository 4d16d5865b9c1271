package subgoal

import (
	"slices"
	"strings"
	"testing"
)

// checkInvariants asserts what every result of Split must satisfy; with merged, the result of
// a Merge of it, whose merged text is no longer a part of the request.
func checkInvariants(t *testing.T, request string, goals []Goal, merged bool) {
	t.Helper()
	if strings.TrimSpace(request) == "" {
		if goals != nil {
			t.Fatalf("Split(%q) = %v, want nil for a blank request", request, goals)
		}
		return
	}
	if len(goals) < 2 {
		t.Fatalf("Split(%q) returned %d goals, want a clause and the whole request", request, len(goals))
	}
	whole := goals[len(goals)-1]
	if !whole.Whole || whole.Text != strings.TrimSpace(request) {
		t.Fatalf("Split(%q): last goal %v is not the whole request", request, whole)
	}
	norm := collapse(request)
	ranks := make([]int, 0, len(goals))
	for i, g := range goals {
		if g.Order != i || (i > 0 && g.Order <= goals[i-1].Order) {
			t.Fatalf("Split(%q): goal %d has order %d", request, i, g.Order)
		}
		if g.Text == "" {
			t.Fatalf("Split(%q): goal %d has an empty text", request, i)
		}
		if g.Source != SourceSplit {
			t.Fatalf("Split(%q): goal %d has source %q", request, i, g.Source)
		}
		for _, v := range g.Values {
			if strings.TrimSpace(v) == "" {
				t.Fatalf("Split(%q): goal %d has an empty value", request, i)
			}
		}
		ranks = append(ranks, g.Rank)
		if i == len(goals)-1 {
			break
		}
		if g.Whole {
			t.Fatalf("Split(%q): clause goal %d is marked whole", request, i)
		}
		if !merged && !strings.Contains(norm, g.Text) {
			t.Fatalf("Split(%q): goal %d text %q is not part of the request", request, i, g.Text)
		}
		if !merged && g.Resolved != "" && i > 0 && !resolvedFrom(g.Text, g.Resolved, goals[i-1].Values) {
			t.Fatalf("Split(%q): goal %d resolves %q as %q, not one pronoun written as a thing", request, i, g.Text, g.Resolved)
		}
	}
	if whole.Resolved != "" || !merged && goals[0].Resolved != "" {
		t.Fatalf("Split(%q): the first clause or the whole request is resolved", request)
	}
	slices.Sort(ranks)
	for i, r := range ranks {
		if r != i {
			t.Fatalf("Split(%q): ranks %v are not a permutation", request, ranks)
		}
	}
	if whole.Rank != len(goals)-1 {
		t.Fatalf("Split(%q): whole goal rank %d, want %d", request, whole.Rank, len(goals)-1)
	}
}

// resolvedFrom reports whether resolved is text with one word of it written as "the" and a
// word, or as the owner of a possessive: one of the clause before's values (named) and "'s";
// the same text before and after.
func resolvedFrom(text, resolved string, named []string) bool {
	for i := 0; i <= len(text); i++ {
		if !strings.HasPrefix(resolved, text[:i]) {
			return false
		}
		for j := i; j <= len(text); j++ {
			mid := strings.TrimSuffix(strings.TrimPrefix(resolved, text[:i]), text[j:])
			if !strings.HasSuffix(resolved, text[j:]) || len(text[:i])+len(text[j:]) >= len(resolved) {
				continue
			}
			if strings.HasPrefix(mid, "the ") && !strings.ContainsAny(mid[len("the "):], " \t\n") && mid != "the " {
				return true
			}
			if owner, ok := strings.CutSuffix(mid, "'s"); ok && slices.Contains(named, owner) {
				return true
			}
		}
	}
	return false
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"",
		"   ",
		"find a hotel near the stadium, then book a table at the best-rated restaurant next to it",
		"Can you provide me with the channel clips and the channel details? I'm eager to learn more about their content.",
		"1) find hotels 2) book a table (3) check the weather",
		"1. Get the standings\n2. Show the top scorer",
		"Book a table. Before that, find a restaurant. Then check its reviews.",
		"Book a table. First, find a restaurant, then check its reviews.",
		`Play "Hey Jude" by The Beatles, then 'Let It Be'.`,
		"Email jane@example.org the file at https://example.org/a.pdf?x=1; thanks!",
		"e.g. i.e. etc. U.S. J. K. Rowling... ??? !!! ,,, ;;;",
		"and and and then then so that in order to",
		"«Bonjour» „Hallo“ ‘hi’ “hello” 'unclosed \"unclosed",
		"$100 €20 £5 ¥300 #tag @user 25% 10:30 1,000 3.5 2024-03-03 top-1 AB123",
		"\xff\xfe invalid \xc3 utf8",
		"Thank you!",
		"ok",
		"How many stars does the best hotel in Lisbon have, and where is it exactly?",
		"Find the best restaurant in Rome and book it for them",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, request string) {
		goals := Split(request)
		checkInvariants(t, request, goals, false)
		if again := Split(request); !slices.EqualFunc(goals, again, func(a, b Goal) bool {
			return a.String() == b.String() && a.Source == b.Source
		}) {
			t.Fatalf("Split(%q) is not deterministic", request)
		}
		if len(goals) >= 3 {
			merged := Merge(goals, 0, 1)
			checkInvariants(t, request, merged, true)
		}
	})
}
