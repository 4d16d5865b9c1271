package subgoal

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWhen(t *testing.T) {
	tests := []struct {
		text string
		want []int
	}{
		{"weather tomorrow in Oslo", []int{1}},
		{"Tomorrow's air quality index at a point.", []int{1}},
		{"What will the high temperature be in Rome in five days?", []int{5}},
		{"the forecast in 3 days", []int{3}},
		{"What happened yesterday, and what is planned for today?", []int{-1, 0}},
		{"tomorrow, and tomorrow again", []int{1}}, // each day once
		{"Current weather at a point", nil},        // a request's present dates nothing
		{"the days in Rome", nil},                  // no number of days
		{"a stay of 5 days in Rome", nil},          // a duration, not a day ahead
		{"", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, When(tt.text), tt.text)
	}
}

func TestDates(t *testing.T) {
	tests := []struct {
		description string
		want        []int
	}{
		{"Current weather at a point: temperature, humidity, wind and conditions.", []int{0}},
		{"Weather now at a latitude and longitude.", []int{0}},
		{"Tomorrow's high, low and rain chance at a latitude and longitude.", []int{1}},
		{"Today's and tomorrow's events.", []int{0, 1}},
		{"Daily weather forecast at a point, for the day given by days ahead.", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Dates(tt.description), tt.description)
	}
}

func TestAsked(t *testing.T) {
	tests := []struct {
		request string
		want    []int
	}{
		{"What's the AQI in Los Angeles right now?", []int{0}},
		{"Which films are showing now", []int{0}},
		{"the weather tomorrow, and right now", []int{1, 0}},
		{"Now book the best hotel there", nil},    // orders the steps
		{"Find out who is logged in, now.", nil},  // alone after a comma: orders the steps
		{"Log me out of my current session", nil}, // names a resource
		{"What is the weather in Rome", nil},      // names no day
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Asked(tt.request), tt.request)
	}
}

func TestTimeless(t *testing.T) {
	tests := []struct{ text, want string }{
		{"weather tomorrow in Oslo", "weather in Oslo"},
		{"Tomorrow's forecast in Paris", "forecast in Paris"},
		{"the high temperature in Rome in five days", "the high temperature in Rome"},
		{"the weather in Rome", "the weather in Rome"}, // nothing dates it: unchanged
		{"tomorrow", "tomorrow"},                       // nothing would be left
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Timeless(tt.text), tt.text)
	}
}
