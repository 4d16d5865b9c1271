package recall

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/subgoal"
)

func TestRequestAction(t *testing.T) {
	tests := []struct {
		text string
		want Action
	}{
		{"Book a meeting for me, including all employees who are not traveling", ActionCreate},
		{"Can you cancel my appointment with Dr. Smith?", ActionDelete},
		{"please reschedule the call to Friday", ActionUpdate},
		{"Retrieve the total number of likes of user 2", ActionRead},
		{"What time is my reservation?", ActionRead}, // a question word first: the noun does not book
		{"When's the next train to Lyon", ActionRead},
		{"Is it going to rain in Paris tomorrow?", ActionRead},
		{"Is folder 55120 locked against moves or deletes right now?", ActionRead}, // a question, whatever its nouns
		{"Hi, can you set an alarm for 8 am?", ActionCreate},
		{"Can you turn on my living room light at 7 pm?", ActionUnknown}, // a request, not a question
		{"Thanks! Could you turn the heating up?", ActionUnknown},        // subgoal.Courtesy: "thanks" before the frame
		{"Please, could you dim the lights in the hall?", ActionUnknown}, // subgoal.Courtesy: "please"
		{"what's the status of my parcel", ActionRead},                   // subgoal.QuestionWord: a contraction
		{"Who's playing at the stadium tonight", ActionRead},
		{"Could you check my reminders?", ActionRead},
		{"Send me the report of last week", ActionUnknown}, // "send" creates in an API's description only (descriptionWords)
		{"I need a hotel reservation in Paris", ActionCreate},
		{"the weather in Paris", ActionUnknown},
		{"I need the build hook URL so I can paste it into our CMS webhook settings.", ActionUnknown}, // a plural in -ing is a noun
		{"Show me my bookings", ActionRead},
		// A frame in the last sentence, whose question mark it is.
		{"The latest release broke the homepage. Can you put the site back on the deploy from commit 9f2c4e1?", ActionUnknown},
		{"", ActionUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			assert.Equal(t, tt.want, RequestAction(tt.text))
		})
	}
}

// A clause split off a question is read as one: the mark is the request's, not the clause's.
func TestResultAction(t *testing.T) {
	tests := []struct {
		request string
		clauses []string
		want    Action
	}{
		{"Is folder 55120 locked against moves or deletes right now?", []string{"Is folder 55120 locked against moves or deletes right now"}, ActionRead},
		{"Can you help me reschedule my appointment with Dr. Smith on October 10th?", []string{"reschedule my appointment with Dr. Smith on October 10th"}, ActionUpdate},
		{"Today is Monday. Can you delete my meeting at 3pm?", []string{"delete my meeting at 3pm"}, ActionDelete},
		{"Find the folder and delete its locks", []string{"Find the folder", "delete its locks"}, ActionDelete},
		{"Delete the locks, then is the folder free?", []string{"Delete the locks", "is the folder free"}, ActionRead},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r := &Result{}
			for i, c := range tt.clauses {
				r.Goals = append(r.Goals, Goal{Goal: subgoal.Goal{Order: i, Rank: i, Text: c}})
			}
			r.Goals = append(r.Goals, Goal{Goal: subgoal.Goal{Order: len(tt.clauses), Rank: len(tt.clauses), Text: tt.request, Whole: true}})
			assert.Equal(t, tt.want, r.Action())
		})
	}
}

func TestAPIAction(t *testing.T) {
	tests := []struct {
		name string
		api  twnm.API
		want Action
	}{
		{"name's first word", twnm.API{Name: "AddMeeting", Description: "Query the meetings."}, ActionCreate},
		{"provider ignored", twnm.API{Name: "stay.SearchHotels"}, ActionRead},
		{"snake case", twnm.API{Name: "delete_user"}, ActionDelete},
		{"a method after its namespace", twnm.API{Name: "slack.dnd_setSnooze", Endpoint: &twnm.Endpoint{Method: "GET"}}, ActionCreate},
		{"a namespace's noun after its verb", twnm.API{Name: "reminders_info", Endpoint: &twnm.Endpoint{Method: "GET"}}, ActionRead},
		{"a later word is a noun", twnm.API{Name: "TrainSchedule", Description: "Train times between two stations."}, ActionUnknown},
		{"method", twnm.API{Name: "movie credits", Endpoint: &twnm.Endpoint{Method: "GET"}}, ActionRead},
		{"put", twnm.API{Name: "pets", Endpoint: &twnm.Endpoint{Method: "PUT"}}, ActionUpdate},
		{"post creates", twnm.API{Name: "post_folders_id", Endpoint: &twnm.Endpoint{Method: "POST"}}, ActionCreate},
		{"the name's verb before the method", twnm.API{Name: "searchPets", Endpoint: &twnm.Endpoint{Method: "POST"}}, ActionRead},
		{"a read the catalog declares", twnm.API{Name: "geolocate", Effect: twnm.EffectRead, Endpoint: &twnm.Endpoint{Method: "POST"}}, ActionRead},
		{"an MCP tool that only reads", twnm.API{Name: "mem.open_nodes", Effect: twnm.EffectRead}, ActionRead},
		{"description's first sentence", twnm.API{Name: "Meeting",
			Description: "This API allows users to make a reservation for a meeting. Users can query it later."}, ActionCreate},
		{"not past the first sentence", twnm.API{Name: "Meeting", Description: "Meetings of a team. Delete them here."}, ActionUnknown},
		{"an API that sends creates", twnm.API{Name: "EmailReminder",
			Description: "This API sends an email reminder to the user with the meeting details."}, ActionCreate},
		{"the first action word decides", twnm.API{Name: "Digest", Description: "Lists the news and sends none."}, ActionRead},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, APIAction(tt.api))
		})
	}
}

func TestChooseActionOfTheRequest(t *testing.T) {
	// Query leads Add (1 against .9) on the words they share; "book" creates, so Query's final
	// score is scaled by actionMismatch to .7 < .9 and Add is final. Asked what is booked,
	// the query tool stays final.
	r := &Result{Goals: []Goal{
		goal(0, true, Match{Name: "Query", Score: 1}, Match{Name: "Add", Score: .9}),
	}}
	l := links{apis: map[string]twnm.API{
		"Query": {Name: "QueryMeeting", Description: "This API allows users to query the information of a meeting."},
		"Add":   {Name: "AddMeeting", Description: "This API allows users to make a reservation for a meeting."}}}
	r.Goals[0].Text = "Book a meeting with the team at 3pm"
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "Add", r.Final)
	assert.InDelta(t, 0.7, r.Scores["Query"], 1e-12)

	r.Goals[0].Text = "Which meetings have I booked for today?"
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "Query", r.Final)

	// Without the graph, relevance alone decides.
	r.Goals[0].Text = "Book a meeting with the team at 3pm"
	require.NoError(t, Choose(r, l, Options{NoGraph: true}))
	assert.Equal(t, "Query", r.Final)
}

func TestChooseMovesKeepTheAction(t *testing.T) {
	// Modify leads Register (1 against .95); Register consumes Modify's output and the request
	// names its own word ("appointment"), which would move the final step to it, but
	// "reschedule" updates and Register creates: scaled to .665, and never moved to.
	r := &Result{Goals: []Goal{
		goal(0, true, Match{Name: "Modify", Score: 1}, Match{Name: "Register", Score: .95}),
	}}
	r.Goals[0].Text = "Can you help me reschedule my appointment?"
	l := links{feeds: map[[2]string]bool{{"Modify", "Register"}: true}, producers: needOf("Register", "appointment_id", "Modify"),
		apis: map[string]twnm.API{
			"Modify":   {Name: "ModifyRegistration", Description: "This API modifies the registration of a patient."},
			"Register": {Name: "AppointmentRegistration", Description: "This API registers an appointment of a hospital."}}}
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "Modify", r.Final)

	// Asked to register, the consumer is the final step.
	r.Goals[0].Text = "Register my appointment with the hospital, please"
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "Register", r.Final)

	// A request that names no action moves to no tool that changes state: one that asks
	// nothing done is not served by a registration.
	r.Goals[0].Text = "My appointment with the hospital, please"
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "Modify", r.Final)
}

func TestChooseMismatchYieldsToItsResource(t *testing.T) {
	// Create leads (1 against .65 and .6): "finished yet?" reads, so Create's score is scaled
	// to .7, still ahead. It yields to the best finalist that reads the same resource (its
	// path within Create's), Retrieve, not to Models, which reads another.
	l := links{apis: map[string]twnm.API{
		"Create":   {Name: "createJob", Provider: "ai", Endpoint: &twnm.Endpoint{Method: "POST", Path: "/jobs"}},
		"Models":   {Name: "listModels", Provider: "ai", Endpoint: &twnm.Endpoint{Method: "GET", Path: "/models"}},
		"Retrieve": {Name: "retrieveJob", Provider: "ai", Endpoint: &twnm.Endpoint{Method: "GET", Path: "/jobs/{job_id}"}},
		"Meeting":  {Name: "AddMeeting", Description: "This API allows users to make a reservation for a meeting."},
		"Query":    {Name: "QueryMeeting", Description: "This API allows users to query the information of a meeting."},
		"Reminder": {Name: "QueryReminder", Description: "This API queries the reminders of a user."},
	}}
	cands := []Match{{Name: "Create", Score: 1}, {Name: "Models", Score: .65}, {Name: "Retrieve", Score: .6}}
	r := chooseWhole(t, l, "Is my job finished yet?", cands...)
	assert.Equal(t, "Retrieve", r.Final)

	// Without a path, the names alike but for their first word are one resource's.
	r = chooseWhole(t, l, "Which meetings do I have today?",
		Match{Name: "Meeting", Score: 1}, Match{Name: "Reminder", Score: .65}, Match{Name: "Query", Score: .6})
	assert.Equal(t, "Query", r.Final)

	// Where the request's action is another part's, the last part's own is unknown: no move.
	r = &Result{Goals: []Goal{
		goal(0, false, Match{Name: "Query", Score: 1}),
		goal(1, false, Match{Name: "Meeting", Score: 1}, Match{Name: "Query", Score: .6}),
		goal(2, true, Match{Name: "Meeting", Score: 1}, Match{Name: "Query", Score: .6}),
	}}
	r.Goals[0].Text, r.Goals[1].Text, r.Goals[2].Text = "Query my meeting", "note it down", "Query my meeting and note it down"
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, ActionRead, r.Action())
	assert.Equal(t, "Meeting", r.Final)
}

func TestChooseUnknownActionScalesWrites(t *testing.T) {
	// "grab me the results" names no action: a write is scaled as if the request read (.7 < .9),
	// so the read answers; a read is never scaled for it.
	l := links{apis: map[string]twnm.API{
		"Cancel":   {Name: "cancelBatch", Endpoint: &twnm.Endpoint{Method: "POST", Path: "/batches/{id}/cancel"}},
		"Retrieve": {Name: "retrieveBatch", Endpoint: &twnm.Endpoint{Method: "GET", Path: "/batches/{id}"}},
	}}
	r := chooseWhole(t, l, "My batch finished overnight, grab me the results",
		Match{Name: "Cancel", Score: 1}, Match{Name: "Retrieve", Score: .9})
	assert.Equal(t, ActionUnknown, r.Action())
	assert.Equal(t, "Retrieve", r.Final)
	assert.InDelta(t, .7, r.Scores["Cancel"], 1e-12)
	assert.InDelta(t, .9, r.Scores["Retrieve"], 1e-12)
}

func TestChooseCrownsOnlyWhatTheReadHolds(t *testing.T) {
	// "add the file": Create is held and does it; Batch scores higher but the read after
	// retrieval left it out, so nothing could tell what it does (a read here) nor plan it.
	l := links{apis: map[string]twnm.API{
		"Create": {Name: "createVectorStoreFile", Endpoint: &twnm.Endpoint{Method: "POST", Path: "/vector_stores/{id}/files"}},
		"Search": {Name: "searchVectorStore", Endpoint: &twnm.Endpoint{Method: "GET", Path: "/vector_stores/{id}/search"}},
	}}
	r := chooseWhole(t, l, "Please add the file I uploaded to my vector store",
		Match{Name: "Search", Score: 1}, Match{Name: "Batch", Score: .95}, Match{Name: "Create", Score: .9})
	assert.Equal(t, "Create", r.Final)
	assert.NotContains(t, r.Scores, "Batch")

	// Where links hold none of the candidates, relevance alone still chooses.
	r = chooseWhole(t, links{}, "Please add the file I uploaded to my vector store", Match{Name: "Batch", Score: 1})
	assert.Equal(t, "Batch", r.Final)
}

func TestChooseAgreedAction(t *testing.T) {
	ep := func(method, path string) *twnm.Endpoint { return &twnm.Endpoint{Method: method, Path: path} }
	l := links{apis: map[string]twnm.API{
		"DeleteInvite":   {Name: "delete-invite", Endpoint: ep("DELETE", "/invites/{id}")},
		"RemoveGroup":    {Name: "remove-project-group", Endpoint: ep("DELETE", "/projects/{id}/groups/{g}")},
		"DeleteUser":     {Name: "delete-user", Endpoint: ep("DELETE", "/users/{id}")},
		"InviteUser":     {Name: "inviteUser", Endpoint: ep("POST", "/invites")},
		"RetrieveInvite": {Name: "retrieve-invite", Endpoint: ep("GET", "/invites/{id}")},
	}}
	// "revoke" is no action word, but the part's three nearest tools by meaning delete: the
	// request asks to delete, and the invite's deletion answers, not its read.
	revoke := []Match{{Name: "InviteUser", Score: 1}, {Name: "RetrieveInvite", Score: .8, Dense: .3},
		{Name: "RemoveGroup", Score: .75, Dense: .41}, {Name: "DeleteInvite", Score: .78, Dense: .39}, {Name: "DeleteUser", Score: .7, Dense: .37}}
	r := chooseWhole(t, l, "Please revoke it before they accept", revoke...)
	assert.Equal(t, "DeleteInvite", r.Final)
	assert.InDelta(t, .7, r.Scores["InviteUser"], 1e-12, "a creation is still another action")

	// Nearest tools that disagree say nothing: no action, so every write is scaled and the
	// read answers.
	mixed := slices.Clone(revoke)
	mixed[1].Dense = .5 // the read is now the nearest
	r = chooseWhole(t, l, "Please revoke it before they accept", mixed...)
	assert.Equal(t, "RetrieveInvite", r.Final)
	assert.Equal(t, ActionUnknown, agreedAction(r.Whole(), l, agreeing))
}

func TestSameResource(t *testing.T) {
	ep := func(path string) *twnm.Endpoint { return &twnm.Endpoint{Method: "GET", Path: path} }
	tests := []struct {
		name string
		a, b twnm.API
		want bool
	}{
		{"a path within the other", twnm.API{Endpoint: ep("/jobs")}, twnm.API{Endpoint: ep("/jobs/{id}/cancel")}, true},
		{"parameters aside", twnm.API{Endpoint: ep("/stores/{store_id}")}, twnm.API{Endpoint: ep("/stores/{id}/files")}, true},
		{"another resource", twnm.API{Endpoint: ep("/jobs")}, twnm.API{Endpoint: ep("/models")}, false},
		{"a longer name is another resource", twnm.API{Endpoint: ep("/job")}, twnm.API{Endpoint: ep("/jobs")}, false},
		{"another provider", twnm.API{Provider: "a", Endpoint: ep("/jobs")}, twnm.API{Provider: "b", Endpoint: ep("/jobs")}, false},
		{"names but for the action", twnm.API{Name: "AddMeeting"}, twnm.API{Name: "QueryMeeting"}, true},
		{"names of two things", twnm.API{Name: "AddMeeting"}, twnm.API{Name: "AddAgenda"}, false},
		{"one word names nothing", twnm.API{Name: "Meeting"}, twnm.API{Name: "Query"}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, sameResource(tt.a, tt.b), tt.name)
	}
}

func TestCommands(t *testing.T) {
	tests := []struct {
		text string
		want Action
	}{
		{"Set an alarm for 6am tomorrow", ActionCreate},
		{"cancel my booking for tonight", ActionDelete},
		{"What will the weather be tomorrow?", ActionUnknown}, // a question commands nothing
		{"Can you set an alarm for 6am?", ActionUnknown},      // a request, not a command: its first word names no action
		{"I want to create a playlist", ActionUnknown},
		{"", ActionUnknown},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Commands(tt.text), tt.text)
	}
}

func TestClock(t *testing.T) {
	date := twnm.Param{Name: "date", Type: "str", Description: "The current date. Format: %Y-%m-%d"}
	for _, tc := range []struct {
		name string
		api  twnm.API
		want bool
	}{
		{"today's date", twnm.API{Name: "GetToday", Outputs: []twnm.Param{date}}, true},
		{"the time now", twnm.API{Name: "Now", Outputs: []twnm.Param{{Name: "time", Type: "string", Description: "Current time, HH:MM."}}}, true},
		{"a list with no input", twnm.API{Name: "ListCategories", Outputs: []twnm.Param{{Name: "categories", Type: "array"}}}, false},
		{"a date and more", twnm.API{Name: "Status", Outputs: []twnm.Param{date, {Name: "status", Type: "string"}}}, false},
		{"a date of an input", twnm.API{Name: "NextHoliday", Inputs: []twnm.Param{{Name: "country", Type: "string", Required: true}},
			Outputs: []twnm.Param{date}}, false},
	} {
		assert.Equal(t, tc.want, Clock(tc.api), tc.name)
	}
}
