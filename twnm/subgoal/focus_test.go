package subgoal

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFocus(t *testing.T) {
	tests := []struct {
		name, clause, want string
	}{
		{"a place after the thing", "What is the current weather at the location of the best hotel in Rome?", "What is the current weather"},
		{"a command after a dash", "I'm going through the contact messages for my site — show me what people submitted through the 'contact' form",
			"show me what people submitted through the 'contact' form"}, // the command has no head of its own
		{"a question after a dash", "My site broke - what is the state of its latest deploy", "what is the state"},
		{"a remark after a dash", "Show me the deploys of my site — all of them", "Show me the deploys"},
		{"a name", "Find a hotel in Shanghai", "Find a hotel"},
		{"a number", "Book a table for 7 at the best-rated restaurant", "Book a table"},
		{"a day said relative to today", "What is the weather forecast for tomorrow at the best hotel", "What is the weather forecast"},
		{"a possessive", "Who is the director of today's most trending movie?", "Who is the director"},
		{"a quotation", "Find the reviews of \"Titanic\"", "Find the reviews"},
		{"an id with its name", "Who's the agent for listing lst-92aa", "Who's the agent"},
		{"a vague head and a bare plural", "give me the number of movies of the year", "give me the number of movies"},
		{"a participle's preposition", "tell me which devices are included in the Morning Routine scene", ""},
		{"a participle's, then another", "list the movies directed by Sofia Coppola at the festival", "list the movies directed by Sofia Coppola"},
		{"a bare noun phrase is asked whole", "the movies directed by Sofia Coppola at the festival", ""},
		{"a wh-subject and its verb", "Who directed the top-1 rated movie?", "Who directed"},
		{"an auxiliary is no verb of its own", "Who is Tom Hanks?", ""},
		{"a bare word said of the one asked about", "Who's top of the Serie A table?", ""},
		{"a preposition before it", "Who is on top of Serie A?", ""},
		{"a determiner makes it a thing", "What is the price of the best hotel in Rome?", "What is the price"},
		{"no content before the preposition", "What about the weather in Paris", "What about the weather"},
		{"nothing after the head", "Find the cheapest flights", ""},
		{"a preposition first", "In Paris, find a hotel", ""},
		{"a vague head reaches past of", "fetch the details of a specific order with ID 456", "fetch the details of a specific order"},
		{"a value with its name", "Give me the best home for sale near latitude 52.52, longitude 13.405", "Give me the best home for sale"},
		{"the rest names the tool", "validate the e-mails of my students using the Disposable Email Checker API", ""},
		{"blank", "  ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Focus(tt.clause))
		})
	}
}
